/**
 * Form schemas shared by the client forms and the server handlers. Inputs are the raw string
 * values of a form (multipart fields); `.trim()` makes both sides see trimmed text (docs/product.md §5).
 */
import { mixed, object, type StringSchema, string } from 'yup';
import { ROLES } from '../access/index.ts';
import { ALERT_COMMENT_MAX_LENGTH } from '../alerts/index.ts';
import type { ValidationMessageId } from './messages.ts';
import { withPasswordRules } from './password-rules.ts';

const id = (messageId: ValidationMessageId) => messageId;

export const DEVICE_SERIAL_LENGTH = 8;

/**
 * A serial is printed on labels, typed by people, sent by devices and shown in e-mails, PDFs and CSV
 * files: printable ASCII without spaces or markup (letters, digits, `-` and `_`).
 */
const DEVICE_SERIAL_CHARACTERS = /^[A-Za-z0-9_-]*$/;
/**
 * Control characters in a name (customer, user, device) would forge lines wherever it is printed: a
 * line break becomes a fake header line in an alert e-mail's body, or a new row in a text file. The
 * Unicode line and paragraph separators count as line breaks too.
 */
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/u;

function withoutControlCharacters(schema: StringSchema<string | undefined>) {
  return schema.test(
    'no-control-characters',
    id('validation.name.control_characters'),
    (value) => value === undefined || !CONTROL_CHARACTERS.test(value),
  );
}

export const loginSchema = object({
  email: string()
    .trim()
    .required(id('validation.login.email.required'))
    .email(id('validation.login.email.invalid')),
  password: string().required(id('validation.login.password.required')),
});

/** A password confirmation check that reports alongside the other rules (yup's oneOf would hide them). */
function equalsField(field: string, messageId: ValidationMessageId) {
  return [
    `equals-${field}`,
    messageId,
    function equals(this: { parent: Record<string, unknown> }, value: string | undefined) {
      const other = this.parent[field];
      return !value || value === (other ?? '');
    },
  ] as const;
}

/**
 * The own profile (docs/product.md §2 Profile, docs/accounts.md §1). An empty new password keeps the
 * current one. Changing the e-mail or the password asks for the current password: a session left open
 * on a shared screen must not be enough to take the account over. `currentEmail` is the account's
 * e-mail now (unknown: the current password is asked only for a new password).
 */
export function profileSchema(currentEmail?: string) {
  const emailChanges = (email: unknown) =>
    currentEmail !== undefined &&
    typeof email === 'string' &&
    email.trim().toLowerCase() !== currentEmail.trim().toLowerCase();
  return object({
    name: withoutControlCharacters(string().trim()).required(id('validation.profile.name.required')),
    email: string()
      .trim()
      .required(id('validation.profile.email.required'))
      .email(id('validation.profile.email.required')),
    current_password: string().test(
      'current-password-needed',
      id('validation.profile.current_password.required'),
      function needed(value) {
        const parent = this.parent as Record<string, unknown>;
        return Boolean(value) || (!parent.new_password && !emailChanges(parent.email));
      },
    ),
    new_password: withPasswordRules(string(), { short: 'validation.profile.password.short' }).test(
      ...equalsField('repeat_new_password', 'validation.profile.password.mismatch'),
    ),
    repeat_new_password: string()
      .test('repeat-needed', id('validation.profile.repeat.required'), function needed(value) {
        return Boolean(value) || !(this.parent as Record<string, unknown>).new_password;
      })
      .test(...equalsField('new_password', 'validation.profile.repeat.required')),
  });
}

/** "Forgot your password?": the account's e-mail (docs/accounts.md §4). */
export const forgotPasswordSchema = object({
  email: string()
    .trim()
    .required(id('validation.login.email.required'))
    .email(id('validation.login.email.invalid')),
});

/**
 * A new password from a reset link (docs/accounts.md §4). The account's e-mail and name come as the
 * validation context: the server knows them from the link, the browser does not (it shows the server's
 * answer instead).
 */
export const resetPasswordSchema = object({
  token: string().required(id('validation.password_reset.link_invalid')),
  new_password: withPasswordRules(string(), { short: 'validation.user.password.short' }).required(
    id('validation.user.password.required'),
  ),
  repeat_new_password: string()
    .required(id('validation.user.password.mismatch'))
    .test(...equalsField('new_password', 'validation.user.password.mismatch')),
});

const countryCode = /^[A-Za-z]{2}$/;

export const customerSchema = object({
  name: withoutControlCharacters(string().trim()).required(id('validation.customer.name.required')),
  address: string().trim().optional(),
  postcode: string().trim().optional(),
  city: string().trim().optional(),
  country: string()
    .trim()
    .required(id('validation.customer.country.required'))
    .matches(countryCode, id('validation.customer.country.required')),
  email: string().trim().optional().email(id('validation.customer.email.invalid')),
  phone: string().trim().optional(),
  referrer: string().trim().optional(),
  enable_blockchain: string().oneOf(['0', '1'], id('validation.generic')).optional(),
  // Empty: the server's default (an empty field is how the form goes back to it).
  alert_device_silent_hours: string()
    .trim()
    .optional()
    .matches(/^([1-9]\d{0,4})?$/, id('validation.customer.alert_device_silent_hours.invalid')),
  alert_lamp_life_threshold: string()
    .trim()
    .optional()
    .matches(/^(\d{1,6})?$/, id('validation.customer.alert_lamp_life_threshold.invalid')),
});

/** Password fields are required only when creating a user; for an existing user they only change the password. */
export function userSchema(isNew: boolean) {
  const password = withPasswordRules(string(), { short: 'validation.user.password.short' });
  return object({
    name: withoutControlCharacters(string().trim()).required(id('validation.user.name.required')),
    email: string()
      .trim()
      .required(id('validation.user.email.required'))
      .email(id('validation.user.email.invalid')),
    role: string().oneOf(ROLES, id('validation.user.role.invalid')).optional(),
    new_password: isNew ? password.required(id('validation.user.password.required')) : password.optional(),
    repeat_new_password: string().test(
      'matches-new-password',
      id('validation.user.password.mismatch'),
      function matchesNewPassword(value) {
        const password: unknown = this.parent.new_password;
        return !password || value === password;
      },
    ),
  });
}

export const deviceSchema = object({
  device_serial: string()
    .trim()
    .required(id('validation.device.serial.length'))
    // Characters as the database counts them (code points): yup's length() counts UTF-16 units, so four
    // emoji passed as 8 and the column's check refused them with a 500.
    .test(
      'serial-length',
      id('validation.device.serial.length'),
      (value) => value === undefined || [...value].length === DEVICE_SERIAL_LENGTH,
    )
    .test(
      'serial-characters',
      id('validation.device.serial.characters'),
      (value) => value === undefined || DEVICE_SERIAL_CHARACTERS.test(value),
    ),
  label: withoutControlCharacters(string().trim()).required(id('validation.device.label.required')),
  product_id: string().trim().required(id('validation.device.product.required')),
  // A key is judged where it is known whether this form changes it (an RSA public key, the server's rule).
  public_key: string().trim().optional(),
  public_key_2: string().trim().optional(),
});

const pdfName = /\.pdf$/i;

export const certificateUploadSchema = object({
  lot_number: string().trim().required(id('validation.certificate.lot_number.required')),
  validated_treatment_number: string()
    .trim()
    .required(id('validation.certificate.treatment_number.required')),
  expiration_date: string()
    .trim()
    .required(id('validation.certificate.expiration_date.required'))
    .matches(/^\d{4}-\d{2}-\d{2}$/, id('validation.certificate.expiration_date.required')),
  italian_file: mixed<{ name: string }>()
    .required(id('validation.certificate.file.required'))
    .test('pdf', id('validation.certificate.file.pdf'), (file) => !file || pdfName.test(file.name)),
});

/** Revoking a device's key: the reason the key history keeps (docs/integrity.md, "Key history"). */
export const keyRevocationSchema = object({
  reason: string().trim().required('devices.keys.reason_required'),
});

/**
 * Resetting a user's second factor: the reason the audit trail keeps, on one line (a line break would
 * forge lines wherever the trail is printed).
 */
export const secondFactorResetSchema = object({
  reason: string()
    .trim()
    .required(id('validation.second_factor.reason.required'))
    .test(
      'one-line',
      id('validation.second_factor.reason.required'),
      (value) => value === undefined || !/[\p{Cc}]/u.test(value),
    ),
});

/** Acknowledging or resolving an alert: an optional comment (src/shared/alerts ALERT_COMMENT_MAX_LENGTH). */
export const alertActionSchema = object({
  comment: string().trim().max(ALERT_COMMENT_MAX_LENGTH, id('validation.alert.comment.too_long')).optional(),
});

/**
 * A compliance report to generate: its language, and a period of whole days (both or neither: the
 * previous month), whose calendar rules the server applies.
 */
export const reportGenerateSchema = object({
  from: string().trim().optional(),
  to: string().trim().optional(),
  language: string()
    .trim()
    .required(id('validation.report.language.invalid'))
    .oneOf(['en', 'it'] as const, id('validation.report.language.invalid')),
});

/** An electronic signature (21 CFR 11.200): the signer's password again, a meaning, an optional comment. */
export const REPORT_COMMENT_MAX_LENGTH = 500;
export const reportSignSchema = object({
  password: string().required(id('validation.report.password.required')),
  meaning: string()
    .trim()
    .required(id('validation.report.meaning.required'))
    .oneOf(['reviewed', 'approved'], id('validation.report.meaning.required')),
  comment: string().trim().max(REPORT_COMMENT_MAX_LENGTH, id('validation.report.comment.long')),
  /** A code of the signer's second factor, when they have one (checked by the server, docs/accounts.md §5). */
  code: string().trim().optional(),
  /** Without an authenticator app, a passkey's answer to the server's challenge (checked by the server). */
  passkey: string().optional(),
});
