// The API contract's types. schema.ts is generated from openapi/openapi.yaml
// (`node scripts/check-generated-api.ts --write`); never edit it by hand.
import type { components, operations, paths } from './schema.ts';

export type { components, operations, paths };

/** Every schema of the contract, by name: `Schemas['Customer']`. */
export type Schemas = components['schemas'];
/** Shared parameters and responses of the contract. */
export type Parameters = components['parameters'];
export type Responses = components['responses'];

/** The operationIds of the contract. */
export type OperationId = keyof operations;
/** The request body of an operation, whatever its media type. */
export type RequestBodyOf<Op extends OperationId> = operations[Op] extends {
  requestBody?: { content: infer C };
}
  ? C[keyof C]
  : never;
/** The query parameters of an operation. */
export type QueryOf<Op extends OperationId> = NonNullable<operations[Op]['parameters']['query']>;
/** The path parameters of an operation. */
export type PathParamsOf<Op extends OperationId> = NonNullable<operations[Op]['parameters']['path']>;
/** The JSON body of an operation's answer for one status code. */
export type ResponseOf<
  Op extends OperationId,
  Status extends keyof operations[Op]['responses'],
> = operations[Op]['responses'][Status] extends {
  content: { 'application/json': infer B };
}
  ? B
  : never;
/** The `data` of an operation's success answer (200 or 201). */
export type DataOf<Op extends OperationId> =
  | (ResponseOf<Op, 200 & keyof operations[Op]['responses']> extends { data: infer D } ? D : never)
  | (ResponseOf<Op, 201 & keyof operations[Op]['responses']> extends { data: infer D } ? D : never);

// Envelopes
export type Envelope = Schemas['Envelope'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type ValidationErrorEnvelope = Schemas['ValidationErrorEnvelope'];
export type ValidationErrors = ValidationErrorEnvelope['data'];
export type EnvelopeStatus = Envelope['status'];

// Enums and small objects
export type Role = Schemas['Role'];
export type Module = Schemas['Module'];
export type Abilities = Schemas['Abilities'];
export type Ability = keyof Abilities;
export type ProductTypeCode = Schemas['ProductTypeCode'];
export type ProductTypeName = Schemas['ProductTypeName'];
export type BlockStatus = Schemas['BlockStatus'];
export type LotStatus = Schemas['LotStatus'];
export type LotStatusFilter = Schemas['LotStatusFilter'];
export type Option = Schemas['Option'];
export type DeviceOption = Schemas['DeviceOption'];

// Entities
export type Health = Schemas['Health'];
export type SessionUser = Schemas['SessionUser'];
export type LoginResult = Schemas['LoginResult'];
export type Customer = Schemas['Customer'];
export type User = Schemas['User'];
export type Product = Schemas['Product'];
export type Device = Schemas['Device'];
export type DeviceGaps = Schemas['DeviceGaps'];
export type DeviceKeyEvent = Schemas['DeviceKeyEvent'];
export type DeviceToken = Schemas['DeviceToken'];
export type RecordEvidence = Schemas['RecordEvidence'];
export type Batch = Schemas['Batch'];
export type Dashboard = Schemas['Dashboard'];
export type BlockchainDataBlock = Schemas['BlockchainDataBlock'];
export type BlockchainData = Schemas['BlockchainData'];
export type Sterilization = Schemas['Sterilization'];
export type RecallSummary = Schemas['RecallSummary'];
export type RecallCount = Schemas['RecallCount'];
export type Certificate = Schemas['Certificate'];
export type Transaction = Schemas['Transaction'];
export type HashResult = Schemas['HashResult'];
export type ExportTicket = Schemas['ExportTicket'];
export type AuditEntry = Schemas['AuditEntry'];
export type AuditChange = Schemas['AuditChange'];
export type AuditAction = Schemas['AuditAction'];
export type AuditEntityType = Schemas['AuditEntityType'];
export type Mail = Schemas['Mail'];
export type NotificationSettings = Schemas['NotificationSettings'];
export type ListName = Schemas['ListName'];
export type ListColumns = Schemas['ListColumns'];
export type SavedView = Schemas['SavedView'];
export type SavedViewVisibility = Schemas['SavedViewVisibility'];
export type MailState = Schemas['MailState'];
export type Alert = Schemas['Alert'];
export type AlertKind = Schemas['AlertKind'];
export type AlertState = Schemas['AlertState'];
export type AlertCount = Schemas['AlertCount'];

// Paged lists
export type Paged<T> = { data: T[]; total: number; per_page: number; page: number };
export type PagedCustomers = Schemas['PagedCustomers'];
export type PagedUsers = Schemas['PagedUsers'];
export type PagedProducts = Schemas['PagedProducts'];
export type PagedDevices = Schemas['PagedDevices'];
export type PagedSterilizations = Schemas['PagedSterilizations'];
export type PagedCertificates = Schemas['PagedCertificates'];
export type PagedAudit = Schemas['PagedAudit'];
export type PagedAlerts = Schemas['PagedAlerts'];

// Request bodies
export type LoginForm = Schemas['LoginForm'];
export type ProfileForm = Schemas['ProfileForm'];
export type CustomerForm = Schemas['CustomerForm'];
export type UserForm = Schemas['UserForm'];
export type DeviceForm = Schemas['DeviceForm'];
export type CertificateUploadForm = Schemas['CertificateUploadForm'];
export type CalculateHashForm = Schemas['CalculateHashForm'];
export type IngestRequest = Schemas['IngestRequest'];
export type ExportTicketRequest = Schemas['ExportTicketRequest'];
export type AlertActionRequest = Schemas['AlertActionRequest'];
export type RevokeKeyRequest = Schemas['RevokeKeyRequest'];
export type ExportKind = ExportTicketRequest['export'];

// Live updates (streamEvents)
export type LiveEvent = Schemas['LiveEvent'];

/** Base path of every call except the CSV exports (`servers` of the contract). */
export const API_BASE_PATH = '/api/v1';
