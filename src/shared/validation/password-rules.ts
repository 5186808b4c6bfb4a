/**
 * What a password must be (docs/accounts.md §1, OWASP ASVS 5.0 §6.2): 8 to 128 characters of any kind,
 * taken as typed (never trimmed), not one of the most common or breached passwords, not holding the
 * user's e-mail address, not the user's name. Nothing else: no composition rule, no periodic change.
 * One set of rules for every form that sets a password (profile, a user's edit, the reset page), on
 * the client and on the server alike.
 */
import type { StringSchema, TestContext } from 'yup';
import type { ValidationMessageId } from './messages.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Characters as a person counts them (code points): an emoji is one character, not two UTF-16 units. */
export const passwordLength = (password: string) => [...password].length;

let commonPasswords: ReadonlySet<string> | undefined;
let loading: Promise<ReadonlySet<string>> | undefined;

/**
 * The common-passwords list of zxcvbn-ts (about 49,000 passwords from public breach corpora, the
 * package's `passwords-common` dictionary). Loaded on first use: the app fetches it only when someone
 * types a new password.
 */
export function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  loading ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => {
    commonPasswords = new Set(dictionary['passwords-common']);
    return commonPasswords;
  });
  return loading;
}

/** The list compares in lower case: "Password123" is "password123" to anyone guessing. */
function isCommon(list: ReadonlySet<string>, password: string): boolean {
  return list.has(password.toLowerCase());
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return isCommon(await loadCommonPasswords(), password);
}

/** Whose password it is: the e-mail and name to keep out of it (from the form, or from the account). */
export interface PasswordOwner {
  email?: string | undefined;
  name?: string | undefined;
}

const filled = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * The owner the rules compare with: the form's own `email` and `name` fields when it has them (a
 * profile or user form, as typed), else the yup context's (the reset page, whose account the server
 * knows).
 */
function ownerOf(context: TestContext): PasswordOwner {
  const fromContext = (context.options.context ?? {}) as PasswordOwner;
  const parent = (context.parent ?? {}) as Record<string, unknown>;
  return {
    email: filled(parent.email) ?? filled(fromContext.email),
    name: filled(parent.name) ?? filled(fromContext.name),
  };
}

export interface PasswordMessages {
  short: ValidationMessageId;
}

/** Adds the rules to a password field, each with its own message. */
export function withPasswordRules(schema: StringSchema<string | undefined>, messages: PasswordMessages) {
  return schema
    .test('password-short', messages.short, (value) => !value || passwordLength(value) >= PASSWORD_MIN_LENGTH)
    .test(
      'password-long',
      'validation.password.too_long' satisfies ValidationMessageId,
      (value) => !value || passwordLength(value) <= PASSWORD_MAX_LENGTH,
    )
    .test(
      'password-email',
      'validation.password.contains_email' satisfies ValidationMessageId,
      function noEmail(value) {
        const email = ownerOf(this).email?.toLowerCase();
        return !value || !email || !value.toLowerCase().includes(email);
      },
    )
    .test(
      'password-name',
      'validation.password.equals_name' satisfies ValidationMessageId,
      function notName(value) {
        const name = ownerOf(this).name?.toLowerCase();
        return !value || !name || value.trim().toLowerCase() !== name;
      },
    )
    .test('password-common', 'validation.password.common' satisfies ValidationMessageId, (value) => {
      // A short password is refused already; one message says what to do.
      if (!value || passwordLength(value) < PASSWORD_MIN_LENGTH) return true;
      // Synchronous once loaded, so a form's first synchronous check (validateSync) does not throw.
      if (commonPasswords) return !isCommon(commonPasswords, value);
      return isCommonPassword(value).then((common) => !common);
    });
}
