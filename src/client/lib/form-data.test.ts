import { describe, expect, it } from 'vitest';
import { formDataSerializer, toFormData, trimValues } from './form-data';

const entries = (form: FormData) => [...form.entries()].map(([key, value]) => [key, value]);

describe('trimValues', () => {
  it('trims text but keeps passwords as typed', () => {
    expect(trimValues({ name: '  Ada ', email: ' a@b.it', new_password: ' secret ', count: 3 })).toEqual({
      name: 'Ada',
      email: 'a@b.it',
      new_password: ' secret ',
      count: 3,
    });
  });
});

describe('toFormData', () => {
  it('drops empty values and trims text', () => {
    const form = toFormData({ name: ' Clinic ', address: '   ', city: '', phone: null, referrer: undefined });
    expect(entries(form)).toEqual([['name', 'Clinic']]);
  });

  it('sends booleans as 1/0 and numbers as text', () => {
    const form = toFormData({ enable_blockchain: true, other: false, product_id: 2 });
    expect(entries(form)).toEqual([
      ['enable_blockchain', '1'],
      ['other', '0'],
      ['product_id', '2'],
    ]);
  });

  it('keeps files and repeats array values', () => {
    const file = new File(['%PDF-1.4'], 'cert.pdf', { type: 'application/pdf' });
    const form = toFormData({ italian_file: file, tags: ['a', ' ', 'b'] });
    expect(form.get('italian_file')).toBeInstanceOf(File);
    expect((form.get('italian_file') as File).name).toBe('cert.pdf');
    expect(form.getAll('tags')).toEqual(['a', 'b']);
  });

  it('does not trim passwords', () => {
    expect(toFormData({ password: ' pw ' }).get('password')).toBe(' pw ');
  });
});

describe('formDataSerializer', () => {
  it('serializes plain objects and passes FormData through', () => {
    expect(entries(formDataSerializer({ email: 'a@b.it', password: '' }))).toEqual([['email', 'a@b.it']]);
    const form = new FormData();
    expect(formDataSerializer(form)).toBe(form);
  });
});
