import { createFileRoute } from '@tanstack/react-router';
import { BlockchainPage } from '../features/blockchain/blockchain-page';

export const Route = createFileRoute('/blockchain')({
  component: BlockchainPage,
});
