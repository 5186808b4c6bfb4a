/**
 * The SMTP side of e-mail: nodemailer over SMTP_URL. The rest of the server only sees `MailTransport`,
 * so the sender can be tested against a real SMTP server started by the test.
 */
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** Stable per outbox row, so a mail sent again after a crash is recognisably the same message. */
  messageId: string;
  language: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

export function createSmtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      const info = await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
        headers: { 'Content-Language': mail.language },
      });
      return { messageId: String(info.messageId ?? mail.messageId) };
    },
    close() {
      transporter.close();
    },
  };
}
