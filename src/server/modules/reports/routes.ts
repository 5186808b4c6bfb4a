/**
 * Compliance reports (docs/reports.md): the figures of a customer's period, the report's
 * draft PDF, its electronic signatures (21 CFR Part 11 §11.50, §11.70, §11.200) and each signed
 * version's proof receipt. Every call is tenant-scoped like the customer page: a clinic user reaches
 * only its own customer's reports; another customer's ids answer 404.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { withForm } from '#server/contract/form-operation.ts';
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import type { SignatureMeaning } from '#server/db/schema.ts';
import { written } from '#server/db/written.ts';
import { ApiError, notFound, ok, validationFailed } from '#server/http/envelope.ts';
import { pageOf, pageRequest } from '#server/http/paging.ts';
import { sendPdf } from '#server/http/pdf-reply.ts';
import { renderComplianceReport } from '#server/pdf/report/compliance-report.ts';
import { markDraft } from '#server/pdf/report/draft-mark.ts';
import { MAX_SIGNATURES } from '#server/pdf/report/layout.ts';
import { stampSignature } from '#server/pdf/report/signature-stamp.ts';
import { assertTenant, currentAuth, requireAbility } from '#server/security/guards.ts';
import type { LoginThrottle } from '#server/security/login-throttle.ts';
import { checkAssertion, type WebauthnConfig } from '#server/security/passkeys.ts';
import { verifyPassword } from '#server/security/passwords.ts';
import { checkSecondFactorCode, secondFactorState } from '#server/security/second-factor.ts';
import type { AuthContext } from '#server/security/session-store.ts';
import { reportLeafHash } from '#shared/integrity/index.ts';
import { reportGenerateSchema, reportSignSchema } from '#shared/validation/index.ts';
import { auditSource, writeAudited } from '../audit/index.ts';
import type { ChainService } from '../integrity/index.ts';
import { acceptedPeriod, parsePeriod } from './period.ts';
import {
  findReport,
  insertReport,
  insertReportVersion,
  listReportPage,
  lockForSigning,
  nextReportId,
  readReportPdf,
  signedSince,
  signerOf,
  versionAnchor,
} from './repository.ts';
import { complianceSummary, findReportCustomer } from './summary.ts';

/**
 * A signer's second signature of one report with the same meaning within this time is refused: it is
 * a replayed or repeated request (a double click, a resent form), not a new decision, and a signature
 * once made can never be removed. A deliberate repetition can wait this long.
 */
const REPEATED_SIGNATURE_MS = 60_000;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The public page that verifies receipts, on the origin the caller reached. */
function verificationUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/verify`;
}

async function tenantCustomer(db: Db, auth: AuthContext, customerId: number) {
  assertTenant(auth, customerId);
  const customer = await findReportCustomer(db, customerId);
  if (!customer) throw notFound();
  return customer;
}

export function reportsModule(deps: {
  db: Db;
  throttle: LoginThrottle;
  chain: ChainService;
  /** Passkeys' relying party: a signer with passkeys and no app confirms with one (docs/accounts.md §6). */
  webauthn: WebauthnConfig;
}): ApiModule {
  const { db, throttle, chain, webauthn } = deps;

  return {
    handlers: {
      async getComplianceSummary(request) {
        const auth = currentAuth(request);
        const customer = await tenantCustomer(db, auth, request.params.id);
        const period = parsePeriod(request.query.from, request.query.to);
        if (!period.ok) throw validationFailed(period.errors);
        return ok(await complianceSummary(db, customer, period.period, verificationUrl(request)));
      },

      async listCustomerReports(request) {
        const auth = currentAuth(request);
        await tenantCustomer(db, auth, request.params.id);
        const { page, sortBy, sortDir, filterStatus, filterLanguage } = request.query;
        const paging = pageRequest(page, request.query.perPage);
        const { rows, total } = await listReportPage(db, {
          customerId: request.params.id,
          sortBy: sortBy === 'period_from' ? 'period_from' : 'created_at',
          dir: sortDir === 'asc' ? 'asc' : 'desc',
          status: filterStatus,
          language: filterLanguage,
          limit: paging.limit,
          offset: paging.offset,
        });
        return ok(pageOf(rows, total, paging));
      },

      createReport: withForm(
        {
          async authorize(request) {
            const auth = currentAuth(request);
            return { auth, customer: await tenantCustomer(db, auth, request.params.id) };
          },
          schema: reportGenerateSchema,
          rules(values, _subject, errors) {
            const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
            const period = parsePeriod(text(values.from), text(values.to));
            if (!period.ok) Object.assign(errors, period.errors);
          },
        },
        async (request, { form, subject: { auth, customer } }, reply) => {
          const { language } = form;
          const period = acceptedPeriod(form.from, form.to);
          const id = await nextReportId(db);
          const createdAt = new Date();
          const summary = await complianceSummary(db, customer, period, verificationUrl(request));
          const pdf = await renderComplianceReport({
            reportId: id,
            language,
            generatedAt: createdAt,
            summary,
          });
          const digest = sha256(pdf);
          const generated = { action: 'generate', entityType: 'report', entityId: id } as const;
          await writeAudited(db, auditSource(request, auth), generated, async (tx) => {
            await insertReport(tx, {
              id,
              customerId: customer.id,
              periodFrom: period.from,
              periodTo: period.to,
              language,
              createdBy: auth.user.id,
              createdAt,
              draftPdf: pdf,
              draftSha256: digest,
            });
            return {
              result: undefined,
              changes: {
                customer_id: { old: null, new: customer.id },
                period_from: { old: null, new: period.from },
                period_to: { old: null, new: period.to },
                language: { old: null, new: language },
                draft_sha256: { old: null, new: digest },
              },
            };
          });
          reply.code(201);
          return ok(written(await findReport(db, customer.id, id), 'report'), 'reports.generated');
        },
      ),

      async getReport(request) {
        const auth = currentAuth(request);
        assertTenant(auth, request.params.id);
        const report = await findReport(db, request.params.id, request.params.reportId);
        if (!report) throw notFound();
        return ok(report);
      },

      async downloadReportDraft(request, reply) {
        const auth = currentAuth(request);
        assertTenant(auth, request.params.id);
        const { id, reportId } = request.params;
        const pdf = await readReportPdf(db, id, reportId, 0);
        const report = pdf ? await findReport(db, id, reportId) : null;
        if (!pdf || !report) throw notFound();
        // Marked on the copy sent: the stored draft, which signed versions are made from, stays clean.
        const marked = Buffer.from(await markDraft(pdf, report.language));
        return sendPdf(reply, marked, `compliance-report-${reportId}-draft.pdf`);
      },

      async downloadReportVersion(request, reply) {
        const auth = currentAuth(request);
        assertTenant(auth, request.params.id);
        const { id, reportId, version } = request.params;
        const pdf = await readReportPdf(db, id, reportId, version);
        if (!pdf) throw notFound();
        return sendPdf(reply, pdf, `compliance-report-${reportId}-v${version}.pdf`);
      },

      async getReportReceipt(request) {
        const auth = currentAuth(request);
        assertTenant(auth, request.params.id);
        const { id, reportId, version } = request.params;
        const anchor = await versionAnchor(db, id, reportId, version);
        if (!anchor) throw notFound();
        if (anchor.blockId === null || !anchor.proof || !anchor.root || !anchor.transactionHash) {
          throw new ApiError(409, 'reports.not_anchored');
        }
        const connected = await chain.chain();
        return ok({
          format: 'uvtrace-report-receipt/1' as const,
          report_id: String(reportId),
          version: String(version),
          sha256: anchor.sha256,
          leaf: reportLeafHash(String(reportId), String(version), anchor.sha256),
          proof: anchor.proof,
          root: anchor.root,
          block_id: anchor.blockId,
          network: anchor.network,
          chain_id: connected.chainId,
          contract_address: connected.contractAddress,
          transaction_hash: anchor.transactionHash,
        });
      },

      signReport: withForm(
        {
          async authorize(request) {
            const auth = requireAbility(request, 'canSignReports');
            assertTenant(auth, request.params.id);
            if (!(await findReport(db, request.params.id, request.params.reportId))) throw notFound();
            return auth;
          },
          schema: reportSignSchema,
          verbatim: ['password', 'passkey'],
        },
        async (request, { form, subject: auth }, reply) => {
          const { id: customerId, reportId } = request.params;
          const { password } = form;
          const meaning = form.meaning as SignatureMeaning;
          const comment = form.comment || null;

          // §11.200: the signer proves again who they are. Wrong passwords count against the login
          // throttle of this account and address, so signing is no way around it, and each one is in the
          // audit trail (sign_failed, like login_failed) while the report stays as it was.
          const email = auth.user.email.toLowerCase();
          const retryAfter = await throttle.retryAfter(email, request.ip);
          if (retryAfter > 0) {
            reply.header('retry-after', String(retryAfter));
            throw new ApiError(429, 'too_many_login_attempts', { retry_after_seconds: retryAfter });
          }
          const signer = await signerOf(db, auth.user.id);
          if (!signer || !(await verifyPassword(signer.passwordHash, password))) {
            await throttle.recordFailure(email, request.ip);
            await writeAudited(db, auditSource(request, auth), {
              action: 'sign_failed',
              entityType: 'report',
              entityId: reportId,
            });
            throw validationFailed({ password: ['validation.report.password.wrong'] });
          }
          // A signer with a second factor proves it too (docs/accounts.md §5): both components of
          // §11.200(a)(1), and the entry says which were used.
          const factors: string[] = ['password'];
          const state = await secondFactorState(db, auth.user.id);
          const signFailed = async () => {
            await throttle.recordFailure(email, request.ip);
            await writeAudited(db, auditSource(request, auth), {
              action: 'sign_failed',
              entityType: 'report',
              entityId: reportId,
            });
          };
          if (!state.totp && state.passkeys > 0) {
            // No app: one of the signer's passkeys, answering a challenge of startPasskeyCheck.
            const assertion = form.passkey ?? '';
            if (assertion === '') throw validationFailed({ passkey: ['validation.passkey.required'] });
            const check = await checkAssertion(db, webauthn, 'reauth', assertion, auth.user.id);
            if (!check.ok) {
              await signFailed();
              throw validationFailed({ passkey: ['validation.passkey.failed'] });
            }
            factors.push('passkey');
          }
          if (state.totp) {
            const code = form.code ?? '';
            if (code === '') throw validationFailed({ code: ['validation.second_factor.code.required'] });
            const check = await checkSecondFactorCode(db, auth.user.id, code);
            if ('retryAfterSeconds' in check) {
              reply.header('retry-after', String(check.retryAfterSeconds));
              throw new ApiError(429, 'too_many_login_attempts', {
                retry_after_seconds: check.retryAfterSeconds,
              });
            }
            if (!check.ok) {
              await signFailed();
              throw validationFailed({ code: ['validation.second_factor.code.wrong'] });
            }
            factors.push(check.factor);
          }

          const signedAt = new Date();
          const signed = { action: 'sign', entityType: 'report', entityId: reportId } as const;
          await writeAudited(db, auditSource(request, auth), signed, async (tx) => {
            const report = await lockForSigning(tx, customerId, reportId);
            if (!report) throw notFound();
            if (report.lastMeaning === 'approved') throw new ApiError(409, 'reports.already_approved');
            // Under the report's lock: two copies of one request sent at once are told apart too.
            const repeatedSince = new Date(signedAt.getTime() - REPEATED_SIGNATURE_MS);
            if (await signedSince(tx, reportId, auth.user.id, meaning, repeatedSince)) {
              throw new ApiError(409, 'reports.already_signed');
            }
            if (report.signatures >= MAX_SIGNATURES) throw new ApiError(409, 'reports.signatures_full');
            const version = report.signatures + 1;
            const pdf = await stampSignature(report.latestPdf, {
              index: report.signatures,
              language: report.language,
              signerName: signer.name,
              signerEmail: signer.email,
              meaning,
              comment,
              signedAt,
            });
            const digest = sha256(pdf);
            await insertReportVersion(tx, {
              reportId,
              version,
              pdf,
              sha256: digest,
              signerUserId: auth.user.id,
              signerName: signer.name,
              signerEmail: signer.email,
              meaning,
              comment,
              signedAt,
            });
            return {
              result: undefined,
              changes: {
                version: { old: report.signatures === 0 ? null : report.signatures, new: version },
                meaning: { old: report.lastMeaning, new: meaning },
                signer_name: { old: null, new: signer.name },
                comment: { old: null, new: comment },
                signed_at: { old: null, new: signedAt.toISOString() },
                sha256: { old: null, new: digest },
                factors: { old: null, new: factors.join('+') },
              },
            };
          });
          await throttle.recordSuccess(email, request.ip);
          reply.code(201);
          return ok(written(await findReport(db, customerId, reportId), 'report'), 'reports.signed');
        },
      ),
    },
  };
}
