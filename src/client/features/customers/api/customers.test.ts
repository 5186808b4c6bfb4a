import { describe, expect, it } from 'vitest';
import { type CustomerFormValues, updateSerializer } from './customers.ts';

describe('the customer update body', () => {
  it('sends a threshold the user typed (a number, as Formik gives it) and an empty one as empty', () => {
    // Formik parses a number input's value: what the form holds after typing 5000.
    const typed = { name: 'Clinic', alert_lamp_life_threshold: 5000 as unknown as string };
    const body = updateSerializer({ ...typed, alert_device_silent_hours: '' });
    expect(body.getAll('alert_lamp_life_threshold')).toEqual(['5000']);
    expect(body.getAll('alert_device_silent_hours')).toEqual(['']);
    expect(body.getAll('name')).toEqual(['Clinic']);
  });

  it('sends untouched thresholds as they came (strings), empty ones as empty', () => {
    const body = updateSerializer({
      alert_device_silent_hours: ' 12 ',
      alert_lamp_life_threshold: undefined,
    } as Partial<CustomerFormValues>);
    expect(body.getAll('alert_device_silent_hours')).toEqual(['12']);
    expect(body.getAll('alert_lamp_life_threshold')).toEqual(['']);
  });
});
