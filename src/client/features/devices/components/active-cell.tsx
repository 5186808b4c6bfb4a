import { useIntl } from 'react-intl';
import type { Device } from '#shared/api/index.ts';

/** docs/product.md §2 Devices list: active YES when the device is not deleted, NO otherwise. */
export function ActiveCell({ device }: { device: Pick<Device, 'deleted_at'> }) {
  const intl = useIntl();
  return <>{intl.formatMessage({ id: device.deleted_at ? 'devices.active.no' : 'devices.active.yes' })}</>;
}
