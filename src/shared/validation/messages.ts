/**
 * Validation message ids and their English text (docs/product.md §5). The ids travel in API answers
 * (`validation_error` data) and are translated by the client; en.json must carry these exact texts.
 */
export const validationMessages = {
  'validation.generic': "Check this field's data",
  'validation.login.email.required': 'Email address is mandatory',
  'validation.login.email.invalid': 'Email address is not valid',
  'validation.login.password.required': 'Password is mandatory',
  'validation.customer.name.required': 'The customer name is mandatory',
  'validation.customer.email.invalid': 'Email address is not valid',
  'validation.customer.country.required': 'Country is mandatory',
  'validation.user.name.required': "User's name is mandatory",
  'validation.user.email.required': 'Email address is mandatory',
  'validation.user.email.invalid': 'Email address is not valid',
  'validation.user.email.taken': 'Email address is already used by another user',
  'validation.user.role.invalid': "Check this field's data",
  'validation.user.password.required': 'Password is mandatory',
  'validation.user.password.short': 'Password too short',
  'validation.user.password.mismatch': 'Passwords must match',
  'validation.device.serial.length': "Device's serial must be 8 chars length",
  'validation.device.serial.characters': "Device's serial may hold only letters, digits, - and _",
  'validation.device.serial.taken': 'This serial is already used by another device',
  'validation.device.label.required': 'Device label is mandatory',
  'validation.device.product.required': 'Product type is mandatory',
  'validation.device.public_key.invalid': 'The public key is not a valid RSA public key (PEM)',
  // Device reassignment (docs/product.md §8), reported on the path's customerId.
  'devices.assign.same_customer': 'This device is already of the selected customer',
  'devices.assign.customer_disabled': 'The selected customer is disabled',
  'validation.certificate.lot_number.required': 'lot number is mandatory',
  'validation.certificate.treatment_number.required': 'validated treatment number is mandatory',
  'validation.certificate.expiration_date.required': 'the expiration date is mandatory',
  'validation.certificate.file.required': 'the Italian certificate file is mandatory',
  'validation.certificate.file.pdf': 'The certificate file must be a PDF',
  'validation.certificate.duplicate':
    'A certificate with this lot number and validated treatment number already exists',
  'validation.report.from.invalid': 'Choose the first day of the period',
  'validation.report.to.invalid': 'Choose the last day of the period',
  'validation.report.to.before_from': 'The last day must not be before the first',
  'validation.report.period.too_long': 'A report covers at most 366 days',
  'validation.report.language.invalid': 'Choose the language of the report',
  'validation.report.password.required': 'Enter your password to sign',
  'validation.report.password.wrong': 'The password is not correct: the report was not signed',
  'validation.report.meaning.required': 'Choose what your signature means',
  'validation.report.comment.long': 'The comment is too long (at most 500 characters)',
  'validation.profile.name.required': 'user name is required',
  'validation.profile.email.required': 'email is mandatory',
  'validation.profile.email.taken': 'Email address is already used by another user',
  'validation.profile.password.required': 'password is mandatory',
  'validation.profile.password.short': 'password is too short',
  'validation.profile.password.mismatch': 'password must match',
  'validation.profile.repeat.required': 'password confirmation is mandatory',
  'validation.profile.current_password.required':
    'Enter your current password to change your e-mail or password',
  'validation.profile.current_password.wrong': 'The current password is not correct',
  // Every form that sets a password (docs/accounts.md §1).
  'validation.password.too_long': 'The password is too long (at most 128 characters)',
  'validation.password.common': 'This password is too common: choose another one',
  'validation.password.contains_email': "The password must not contain the account's e-mail address",
  'validation.password_reset.link_invalid':
    'This link no longer works: it was used, has expired or is incomplete. Ask for a new one.',
  'validation.second_factor.code.required': 'Enter a code of your authenticator app, or a recovery code',
  'validation.second_factor.code.wrong': 'This code is not right, or was used already',
  'validation.second_factor.reason.required': 'Say why the second factor is reset',
  'validation.passkey.required': 'Confirm with one of your passkeys',
  'validation.passkey.failed': 'The passkey did not confirm it is you: try again',
  'validation.passkey.invalid': 'The passkey could not be added: try again',
  'validation.passkey.duplicate': 'This passkey is added already',
  'validation.passkey.name.required': 'Give the passkey a name of at most 64 characters, on one line',
  'validation.password.equals_name': "The password must not be the account holder's name",
  'validation.customer.alert_device_silent_hours.invalid':
    'Enter whole hours from 1 to 99999, or leave empty',
  'validation.customer.alert_lamp_life_threshold.invalid':
    'Enter whole hours from 0 to 999999, or leave empty',
  'validation.alert.comment.too_long': 'The comment can be at most 1000 characters long',
  'validation.name.control_characters': 'Remove the line breaks and other control characters',
} as const;

export type ValidationMessageId = keyof typeof validationMessages;
