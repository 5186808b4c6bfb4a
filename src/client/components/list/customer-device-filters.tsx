import { useAbilities } from '#client/lib/session.ts';
import { AbilityGate } from '../ability-gate';
import { type FilterOption, SelectFilter } from './select-filter';

/** Message ids of the two filters (each list names them in its own words). */
export interface CustomerDeviceFilterIds {
  customer: string;
  allCustomers: string;
  /** Shown under the customer filter while it is fixed to the user's own customer. */
  customerHint?: string;
  device: string;
  allDevices: string;
  deviceHint: string;
}

/**
 * The customer and device filters of the lists of sterilization records (the sterilization list, the
 * recall): the customer is open to canSeeAllSterilizations (without it, fixed to the user's customer,
 * with the gate's tooltip saying why); the device waits for a customer. Choosing a customer drops the
 * device; a device goes into the URL with its customer (a device filter is dropped without one, and a
 * customer user's fixed customer is otherwise not there).
 */
export function CustomerDeviceFilters({
  ids,
  customers,
  devices,
  customerId,
  deviceId,
  customerDisabled = false,
  onChange,
}: {
  ids: CustomerDeviceFilterIds;
  customers: readonly FilterOption[];
  devices: readonly FilterOption[];
  customerId: number | undefined;
  deviceId: number | undefined;
  /** The customer filter is disabled for another reason than the missing ability. */
  customerDisabled?: boolean;
  onChange: (patch: { customerId: number | undefined; deviceId: number | undefined }) => void;
}) {
  const canSeeAll = useAbilities().canSeeAllSterilizations === true;
  const toId = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  return (
    <>
      <AbilityGate ability="canSeeAllSterilizations">
        <SelectFilter
          name="customerId"
          labelId={ids.customer}
          value={customerId === undefined ? undefined : String(customerId)}
          options={customers}
          allLabelId={canSeeAll ? ids.allCustomers : undefined}
          disabled={!canSeeAll || customerDisabled}
          disabledHintId={ids.customerHint}
          minWidth={240}
          onChange={(value) => onChange({ customerId: toId(value), deviceId: undefined })}
        />
      </AbilityGate>
      <SelectFilter
        name="deviceId"
        labelId={ids.device}
        value={deviceId === undefined ? undefined : String(deviceId)}
        options={devices}
        allLabelId={ids.allDevices}
        disabled={customerId === undefined}
        disabledHintId={ids.deviceHint}
        onChange={(value) => onChange({ customerId, deviceId: toId(value) })}
      />
    </>
  );
}
