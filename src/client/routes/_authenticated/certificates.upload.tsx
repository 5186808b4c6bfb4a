import { createFileRoute } from '@tanstack/react-router';
import { CertificateUploadPage } from '../../features/certificates/certificate-upload-page';

/** SPEC §2 certificate upload (/certificates/upload). */
export const Route = createFileRoute('/_authenticated/certificates/upload')({
  component: CertificateUploadPage,
});
