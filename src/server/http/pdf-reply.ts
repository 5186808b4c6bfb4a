import type { FastifyReply } from 'fastify';

/** Answers a generated PDF as a private download (compliance reports, cycle reports). */
export function sendPdf(reply: FastifyReply, bytes: Buffer, fileName: string): FastifyReply {
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Length', String(bytes.length))
    .header('Content-Disposition', `attachment; filename="${fileName}"`)
    .header('Cache-Control', 'private, no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .send(bytes);
}
