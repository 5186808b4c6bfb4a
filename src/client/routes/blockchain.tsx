import { createFileRoute } from '@tanstack/react-router';
import { BlockchainPage } from '../features/integrity/blockchain-page';
import { useDocumentTitle } from '../lib/document-title';

export const Route = createFileRoute('/blockchain')({
  component: BlockchainRoute,
});

function BlockchainRoute() {
  useDocumentTitle({ id: 'titles.blockchain' });
  return <BlockchainPage />;
}
