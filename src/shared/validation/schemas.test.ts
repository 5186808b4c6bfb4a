import { describe, expect, it } from 'vitest';
import { validateForm } from './collect-errors.ts';
import { validationMessages } from './messages.ts';
import { customerSchema, deviceSchema, loginSchema, profileSchema, userSchema } from './schemas.ts';

async function errorsOf(schema: Parameters<typeof validateForm>[0], values: Record<string, unknown>) {
  const result = await validateForm(schema, values);
  return result.ok ? {} : result.errors;
}

describe('login schema', () => {
  it('requires email and password', async () => {
    expect(await errorsOf(loginSchema, {})).toEqual({
      email: ['validation.login.email.required'],
      password: ['validation.login.password.required'],
    });
  });
  it('rejects a malformed email', async () => {
    expect(await errorsOf(loginSchema, { email: 'nope', password: 'x' })).toEqual({
      email: ['validation.login.email.invalid'],
    });
  });
  it('trims the email', async () => {
    const result = await validateForm(loginSchema, { email: '  a@b.it ', password: 'x' });
    expect(result).toEqual({ ok: true, value: { email: 'a@b.it', password: 'x' } });
  });
  it('judges a value whose keys name Object.prototype members instead of throwing', async () => {
    const values = { email: 'nope', password: 'x', constructor: 'c', toString: 't', hasOwnProperty: 'h' };
    expect(await errorsOf(loginSchema, values)).toEqual({ email: ['validation.login.email.invalid'] });
  });
  it('has the product texts for its ids', () => {
    expect(validationMessages['validation.login.email.required']).toBe('Email address is mandatory');
    expect(validationMessages['validation.login.email.invalid']).toBe('Email address is not valid');
    expect(validationMessages['validation.login.password.required']).toBe('Password is mandatory');
  });
});

describe('profile schema', () => {
  const valid = {
    name: 'Ann',
    email: 'ann@example.com',
    new_password: 'longenough',
    repeat_new_password: 'longenough',
  };
  it('accepts a valid profile', async () => {
    expect(await errorsOf(profileSchema, valid)).toEqual({});
  });
  it('requires every field', async () => {
    expect(await errorsOf(profileSchema, { name: '  ' })).toEqual({
      name: ['validation.profile.name.required'],
      email: ['validation.profile.email.required'],
      new_password: ['validation.profile.password.required'],
      repeat_new_password: ['validation.profile.repeat.required'],
    });
  });
  it('rejects an invalid email, a short password and a mismatch', async () => {
    expect(await errorsOf(profileSchema, { ...valid, email: 'x@' })).toEqual({
      email: ['validation.profile.email.required'],
    });
    expect(
      await errorsOf(profileSchema, { ...valid, new_password: 'short', repeat_new_password: 'short' }),
    ).toEqual({
      new_password: ['validation.profile.password.short'],
    });
    expect(await errorsOf(profileSchema, { ...valid, repeat_new_password: 'different1' })).toEqual({
      new_password: ['validation.profile.password.mismatch'],
      repeat_new_password: ['validation.profile.repeat.required'],
    });
  });
  it('has the product texts for its ids', () => {
    expect(validationMessages['validation.profile.name.required']).toBe('user name is required');
    expect(validationMessages['validation.profile.email.required']).toBe('email is mandatory');
    expect(validationMessages['validation.profile.password.required']).toBe('password is mandatory');
    expect(validationMessages['validation.profile.password.short']).toBe('password is too short');
    expect(validationMessages['validation.profile.password.mismatch']).toBe('password must match');
    expect(validationMessages['validation.profile.repeat.required']).toBe(
      'password confirmation is mandatory',
    );
  });
});

describe('customer, user and device schemas', () => {
  it('checks customer name and country', async () => {
    expect(await errorsOf(customerSchema, { country: 'ITA', email: 'bad' })).toEqual({
      name: ['validation.customer.name.required'],
      country: ['validation.customer.country.required'],
      email: ['validation.customer.email.invalid'],
    });
  });
  it('requires a password only for a new user', async () => {
    const user = { name: 'Bo', email: 'bo@example.com' };
    expect(await errorsOf(userSchema(true), user)).toEqual({
      new_password: ['validation.user.password.required'],
    });
    expect(await errorsOf(userSchema(false), user)).toEqual({});
    expect(
      await errorsOf(userSchema(false), { ...user, new_password: 'abcdefgh', repeat_new_password: 'x' }),
    ).toEqual({
      repeat_new_password: ['validation.user.password.mismatch'],
    });
  });
  it('wants an 8-character serial', async () => {
    expect(await errorsOf(deviceSchema, { device_serial: 'ABC', label: 'x', product_id: '1' })).toEqual({
      device_serial: ['validation.device.serial.length'],
    });
  });
  it('counts a serial in characters, as the database does, not in UTF-16 units', async () => {
    const device = (serial: string) => ({ device_serial: serial, label: 'x', product_id: '1' });
    expect(await errorsOf(deviceSchema, device('\u{1F600}'.repeat(4)))).toEqual({
      device_serial: ['validation.device.serial.length', 'validation.device.serial.characters'],
    });
    expect(await errorsOf(deviceSchema, device('\u{1F600}'.repeat(8)))).toEqual({
      device_serial: ['validation.device.serial.characters'],
    });
  });
  it('wants a serial of letters, digits, - and _ only: no space, control character or markup', async () => {
    const device = (serial: string) => ({ device_serial: serial, label: 'x', product_id: '1' });
    for (const serial of ['A\r\nBcc:x', '<b>X</b>', 'AB CD EF', 'ABC.DEF1', 'ÀBCDEFGH', 'AB\tCDEFG'])
      expect([serial, await errorsOf(deviceSchema, device(serial))]).toEqual([
        serial,
        { device_serial: ['validation.device.serial.characters'] },
      ]);
    for (const serial of ['NP000201', 'ab-cd_EF', 'E2E12345'])
      expect(await errorsOf(deviceSchema, device(serial))).toEqual({});
  });
});

describe('names', () => {
  const CONTROL = [
    'A\r\nBcc: x',
    'Line\nbreak',
    'Tab\there',
    'Nul\u0000',
    'Esc\u001b[31m',
    'Del\u007f',
    'C1\u0085',
    'Sep\u2028x',
  ];
  const named = [
    ['customer', customerSchema, { country: 'IT' }, 'name'],
    ['user', userSchema(false), { email: 'bo@example.com' }, 'name'],
    [
      'profile',
      profileSchema,
      { email: 'ann@example.com', new_password: 'longenough', repeat_new_password: 'longenough' },
      'name',
    ],
    ['device', deviceSchema, { device_serial: 'NP000201', product_id: '1' }, 'label'],
  ] as const;

  it('refuse control characters in customer, user, profile and device names', async () => {
    for (const [what, schema, rest, field] of named) {
      for (const name of CONTROL)
        expect([what, name, await errorsOf(schema, { ...rest, [field]: name })]).toEqual([
          what,
          name,
          { [field]: ['validation.name.control_characters'] },
        ]);
      expect([
        what,
        await errorsOf(schema, { ...rest, [field]: 'Clinica <b>San</b> Marco — Ferrè' }),
      ]).toEqual([what, {}]);
    }
  });

  it('trim line breaks at either end away rather than refuse them', async () => {
    const result = await validateForm(customerSchema, { name: ' Clinica San Marco\r\n', country: 'IT' });
    expect(result).toMatchObject({ ok: true, value: { name: 'Clinica San Marco' } });
  });
});
