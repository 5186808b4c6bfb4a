export { type FieldErrors, validateForm } from './collect-errors.ts';
export { type ValidationMessageId, validationMessages } from './messages.ts';
export {
  isCommonPassword,
  loadCommonPasswords,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordLength,
} from './password-rules.ts';
export {
  alertActionSchema,
  certificateUploadSchema,
  customerSchema,
  DEVICE_SERIAL_LENGTH,
  deviceSchema,
  forgotPasswordSchema,
  keyRevocationSchema,
  loginSchema,
  profileSchema,
  REPORT_COMMENT_MAX_LENGTH,
  reportGenerateSchema,
  reportSignSchema,
  resetPasswordSchema,
  secondFactorResetSchema,
  userSchema,
} from './schemas.ts';
