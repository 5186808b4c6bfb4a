export { type FieldErrors, validateForm } from './collect-errors.ts';
export { type ValidationMessageId, validationMessages } from './messages.ts';
export {
  alertActionSchema,
  certificateUploadSchema,
  customerSchema,
  DEVICE_SERIAL_LENGTH,
  deviceSchema,
  loginSchema,
  PASSWORD_MIN_LENGTH,
  profileSchema,
  REPORT_COMMENT_MAX_LENGTH,
  reportSignSchema,
  userSchema,
} from './schemas.ts';
