import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import type { TEnv } from "../env";
import type { TLogger } from "./logger";

export type TMail = { to: string; subject: string; text: string; html: string };
export type TMailer = { send(mail: TMail): Promise<void> };

/**
 * Sends mail over SMTP_URL when it is set. Without it (the embedded default) each message is
 * written as an .eml file under DATA_DIR/outbox and logged, so a self-hoster can still follow a
 * reset link without a mail server.
 */
export function createMailer(env: TEnv, logger: TLogger): TMailer {
  if (env.smtpUrl) {
    const transport = nodemailer.createTransport(env.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: env.mailFrom, ...mail });
        logger.info("mail sent", { to: mail.to, subject: mail.subject });
      },
    };
  }
  const outbox = path.join(env.dataDir, "outbox");
  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(mail) {
      const info = await writer.sendMail({ from: env.mailFrom, ...mail });
      mkdirSync(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = path.join(outbox, `${stamp}-${crypto.randomUUID().slice(0, 8)}.eml`);
      writeFileSync(file, info.message as Buffer);
      logger.info("mail written to the outbox (no SMTP_URL set)", {
        to: mail.to,
        subject: mail.subject,
        file,
      });
    },
  };
}
