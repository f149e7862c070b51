// Outgoing email (password reset links, sign-in notices) through SMTP when configured.

import type { Logger } from '../log';

export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

/** A mailer over the SMTP URL (smtp://user:pass@host:port), or null when none is configured. */
export async function createMailer(smtpUrl: string | undefined, from: string, logger: Logger): Promise<Mailer | null> {
  if (!smtpUrl) return null;
  const nodemailer = await import('nodemailer');
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send({ to, subject, text }) {
      try {
        await transport.sendMail({ from, to, subject, text });
      } catch (err) {
        logger.warn('Email could not be sent', { to, subject, error: (err as Error).message });
      }
    },
  };
}
