import { createFileRoute } from '@tanstack/react-router';
import { CertificateUploadPage } from '#client/features/certificates/certificate-upload-page.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireModulePage } from '#client/lib/route-guards.ts';

/** docs/product.md §2 certificate upload (/certificates/upload). */
export const Route = createFileRoute('/_authenticated/certificates/upload')({
  // docs/product.md §2: the screen is there for everyone with certificates; only its submit needs
  // canUploadCertificates.
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'certificates'),
  component: CertificateUploadRoute,
});

function CertificateUploadRoute() {
  useDocumentTitle({ id: 'titles.certificate_upload' });
  return <CertificateUploadPage />;
}
