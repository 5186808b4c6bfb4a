export { type FieldErrors, validateForm } from './collect-errors.ts';
export { type ValidationMessageId, validationMessages } from './messages.ts';
export {
  certificateUploadSchema,
  customerSchema,
  DEVICE_SERIAL_LENGTH,
  deviceSchema,
  loginSchema,
  PASSWORD_MIN_LENGTH,
  profileSchema,
  userSchema,
} from './schemas.ts';
