import { randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PER_PAGE } from '#server/http/paging.ts';
import { unique } from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import { contentDisposition, sanitizeUploadedName } from './file-names.ts';
import { insertCertificateWithFiles } from './repository.ts';
import { DOWNLOAD_CHUNK_BYTES } from './routes.ts';

let t: TestApp;
let admin: string;
let care: string;
let customer: string;
let samplePdf: Uint8Array;

/** A small real PDF, as a certificate scanner would produce; `padding` adds incompressible bytes. */
async function makePdf(text: string, padding = 0): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const page = document.addPage();
  page.drawText(text, { x: 50, y: 700, size: 14, font: await document.embedFont(StandardFonts.Helvetica) });
  if (padding > 0)
    await document.attach(randomBytes(padding), 'scan.bin', { mimeType: 'application/octet-stream' });
  return document.save();
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}

type UploadFields = Partial<Record<'lot_number' | 'validated_treatment_number' | 'expiration_date', string>>;

function uploadBody(
  fields: UploadFields,
  file?: { data: Uint8Array | string; name?: string; type?: string } | null,
): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, value);
  if (file) {
    form.append(
      'italian_file',
      new Blob([file.data as BlobPart], { type: file.type ?? 'application/pdf' }),
      file.name ?? 'certificato.pdf',
    );
  }
  return form;
}

const upload = (token: string, payload: FormData) =>
  t.as(token, { method: 'POST', url: '/api/v1/certificates', payload });

const validFields = (): Required<UploadFields> => ({
  lot_number: `L${unique()}`,
  validated_treatment_number: `T${unique()}`,
  expiration_date: '2027-03-31',
});

async function uploadOk(fields = validFields(), name = 'certificato.pdf', data: Uint8Array = samplePdf) {
  const response = await upload(admin, uploadBody(fields, { data, name }));
  expectContract('uploadCertificate', response, 201);
  return response.json().data as {
    id: number;
    lot_number: string;
    validated_treatment_number: string;
    expiration_date: string;
    it_file_name: string;
    en_file_name: string;
  };
}

const certificateRows = async () =>
  (await t.database.pool.query('select * from certificates order by id')).rows as Array<
    Record<string, unknown>
  >;
const fileRows = async () =>
  (
    await t.database.pool.query(
      'select id, certificate_id, language, content_type, size_bytes from certificate_files order by id',
    )
  ).rows as Array<Record<string, unknown>>;
const dbState = async () => ({ certificates: await certificateRows(), files: await fileRows() });

beforeAll(async () => {
  t = await createTestApp();
  [admin, care, customer] = await Promise.all([
    t.login(DEMO.admin),
    t.login(DEMO.care),
    t.login(DEMO.customer),
  ]);
  samplePdf = await makePdf('Certificato di sterilizzazione');
});
afterAll(() => t?.close());

describe('POST /certificates (upload)', () => {
  it('stores the row, the Italian PDF and the generated checklist', async () => {
    const fields = {
      lot_number: ' 092695 ',
      validated_treatment_number: '31333',
      expiration_date: '2027-03-31',
    };
    const created = await uploadOk(fields, 'Certificato lotto 092695.pdf');
    expect(created).toMatchObject({
      lot_number: '092695',
      validated_treatment_number: '31333',
      expiration_date: '2027-03-31',
      it_file_name: 'Certificato lotto 092695.pdf',
      en_file_name: 'quality_control_checklist_092695_31333.pdf',
    });

    const row = (await certificateRows()).find((r) => r.id === created.id);
    const adminId = (await t.database.pool.query('select id from users where email = $1', [DEMO.admin]))
      .rows[0].id;
    expect(row).toMatchObject({
      lot_number: '092695',
      validated_treatment_number: '31333',
      uploaded_by: adminId,
    });
    const files = (
      await t.database.pool.query(
        'select language, content, content_type, size_bytes from certificate_files where certificate_id = $1 order by language',
        [created.id],
      )
    ).rows as Array<{ language: string; content: Buffer; content_type: string; size_bytes: number }>;
    expect(files.map((f) => [f.language, f.content_type])).toEqual([
      ['en', 'application/pdf'],
      ['it', 'application/pdf'],
    ]);
    const [en, it] = files;
    expect(Buffer.compare(it?.content ?? Buffer.alloc(0), Buffer.from(samplePdf))).toBe(0);
    expect(it?.size_bytes).toBe(samplePdf.byteLength);
    expect(en?.size_bytes).toBe(en?.content.length);
  });

  it('generates a checklist that parses as a PDF and names the lot, treatment, dates and uploader', async () => {
    const fields = validFields();
    const created = await uploadOk(fields);
    const response = await t.as(customer, {
      method: 'GET',
      url: `/api/v1/certificates/download/en/${created.id}`,
    });
    expect(response.statusCode).toBe(200);
    const document = await PDFDocument.load(response.rawPayload);
    expect(document.getPageCount()).toBe(1);
    const { width, height } = document.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]); // A4
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Quality Control Checklist');
    expect(text).toContain(fields.lot_number);
    expect(text).toContain(fields.validated_treatment_number);
    expect(text).toContain('2027-03-31');
    const uploader = await t.database.pool.query('select name from users where email = $1', [DEMO.admin]);
    expect(text).toContain(uploader.rows[0].name);
    expect(text).toMatch(/Packaging integrity/);
    expect(text).toMatch(/Signature/);
  });

  const missingCases: Array<[keyof UploadFields | 'italian_file', string]> = [
    ['lot_number', 'validation.certificate.lot_number.required'],
    ['validated_treatment_number', 'validation.certificate.treatment_number.required'],
    ['expiration_date', 'validation.certificate.expiration_date.required'],
    ['italian_file', 'validation.certificate.file.required'],
  ];
  for (const [field, messageId] of missingCases) {
    it(`refuses a missing ${field} with ${messageId}`, async () => {
      const before = await dbState();
      const fields: UploadFields = validFields();
      if (field !== 'italian_file') delete fields[field];
      const response = await upload(
        admin,
        uploadBody(fields, field === 'italian_file' ? null : { data: samplePdf }),
      );
      expectContract('uploadCertificate', response, 422);
      expect(response.json()).toEqual({
        status: 'error',
        message: 'validation_error',
        data: { [field]: [messageId] },
      });
      expect(await dbState()).toEqual(before);
    });
  }

  it('reports every missing field at once, and blank text counts as missing', async () => {
    const response = await upload(admin, uploadBody({ lot_number: '   ', validated_treatment_number: '' }));
    expect(response.statusCode).toBe(422);
    expect(response.json().data).toEqual({
      lot_number: ['validation.certificate.lot_number.required'],
      validated_treatment_number: ['validation.certificate.treatment_number.required'],
      expiration_date: ['validation.certificate.expiration_date.required'],
      italian_file: ['validation.certificate.file.required'],
    });
  });

  it('refuses a malformed or impossible expiration date', async () => {
    for (const date of ['31/03/2027', '2027-02-31']) {
      const response = await upload(
        admin,
        uploadBody({ ...validFields(), expiration_date: date }, { data: samplePdf }),
      );
      expect(response.statusCode, date).toBe(422);
      expect(Object.keys(response.json().data)).toEqual(['expiration_date']);
    }
  });

  it('refuses a .pdf that is not a PDF, whatever its name and MIME type say', async () => {
    const before = await dbState();
    const fakes: Array<string | Uint8Array> = [
      'this is plain text pretending to be a certificate',
      '%PDF-1.7\nnot really a pdf body\n%%EOF',
      randomBytes(2048),
      new Uint8Array(0),
    ];
    for (const data of fakes) {
      const response = await upload(
        admin,
        uploadBody(validFields(), { data, name: 'certificato.pdf', type: 'application/pdf' }),
      );
      expectContract('uploadCertificate', response, 422);
      expect(response.json()).toEqual({
        status: 'error',
        message: 'validation_error',
        data: { italian_file: ['validation.certificate.file.pdf'] },
      });
    }
    expect(await dbState()).toEqual(before);
  });

  it('refuses a real PDF whose name is not .pdf', async () => {
    const response = await upload(
      admin,
      uploadBody(validFields(), { data: samplePdf, name: 'certificato.docx' }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().data).toEqual({ italian_file: ['validation.certificate.file.pdf'] });
  });

  it('refuses a file over the size limit (UPLOAD_MAX_BYTES, 20 MB by default) with 413', async () => {
    expect(t.config.uploadMaxBytes).toBe(20 * 1024 * 1024);
    const before = await dbState();
    const big = new Uint8Array(t.config.uploadMaxBytes + 1);
    big.set(samplePdf);
    const response = await upload(admin, uploadBody(validFields(), { data: big }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ status: 'error', message: 'file_too_large', data: null });
    expect(await dbState()).toEqual(before);
  });

  it('refuses a second certificate for the same lot and treatment pair', async () => {
    const fields = validFields();
    await uploadOk(fields);
    const before = await dbState();
    const response = await upload(
      admin,
      uploadBody({ ...fields, expiration_date: '2028-01-01' }, { data: samplePdf }),
    );
    expectContract('uploadCertificate', response, 422);
    expect(response.json()).toEqual({
      status: 'error',
      message: 'validation_error',
      data: { lot_number: ['validation.certificate.duplicate'] },
    });
    expect(await dbState()).toEqual(before);
    // The same lot with another treatment, or the same treatment with another lot, is fine.
    await uploadOk({ ...fields, validated_treatment_number: `T${unique()}` });
    await uploadOk({ ...fields, lot_number: `L${unique()}` });
  });

  it('refuses an upload without canUploadCertificates (403) or without a session (401)', async () => {
    const before = await dbState();
    for (const token of [care, customer]) {
      const response = await upload(token, uploadBody(validFields(), { data: samplePdf }));
      expectContract('uploadCertificate', response, 403);
      expect(response.json().message).toBe('forbidden');
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/certificates',
      payload: uploadBody(validFields(), { data: samplePdf }),
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe('session_expired');
    expect(await dbState()).toEqual(before);
  });

  it('keeps the uploaded name, sanitised', async () => {
    const created = await uploadOk(validFields(), '..\\..\\evil/Cert:ifi*cato\u202Efdp.pdf');
    expect(created.it_file_name).toBe('Cert_ifi_cato_fdp.pdf');
    expect(sanitizeUploadedName('"Cert<1>"\u0007.pdf', 'x.pdf')).toBe('_Cert_1_.pdf');
    expect(sanitizeUploadedName('C:\\scans\\Certificato 01.PDF', 'x.pdf')).toBe('Certificato 01.PDF');
    expect(sanitizeUploadedName('....pdf', 'fallback.pdf')).toBe('fallback.pdf');
    expect(sanitizeUploadedName(`${'a'.repeat(300)}.pdf`, 'x.pdf')).toHaveLength(150);
  });

  it('stores nothing when writing a file fails inside the transaction', async () => {
    const before = await dbState();
    await expect(
      insertCertificateWithFiles(
        t.database.db,
        {
          lotNumber: `L${unique()}`,
          validatedTreatmentNumber: 'T1',
          expirationDate: '2027-01-01',
          itFileName: 'a.pdf',
          enFileName: 'b.pdf',
          uploadedBy: 1,
          createdAt: new Date(),
        },
        {
          it: { content: samplePdf, contentType: 'application/pdf' },
          // violates certificate_files_language_chk
          ['xx' as 'en']: { content: samplePdf, contentType: 'application/pdf' },
        },
      ),
    ).rejects.toThrow();
    expect(await dbState()).toEqual(before);
  });
});

describe('GET /certificates/download/{lang}/{id}', () => {
  it('sends the Italian file with its name and the checklist with its generated name', async () => {
    const fields = { ...validFields(), lot_number: `092695-${unique()}` };
    const created = await uploadOk(fields, 'Certificato è.pdf');

    for (const token of [admin, care, customer]) {
      const it = await t.as(token, { method: 'GET', url: `/api/v1/certificates/download/it/${created.id}` });
      expect(it.statusCode).toBe(200);
      expect(it.headers['content-type']).toBe('application/pdf');
      expect(it.headers['content-disposition']).toBe(
        `attachment; filename="Certificato e.pdf"; filename*=UTF-8''Certificato%20%C3%A8.pdf`,
      );
      expect(Number(it.headers['content-length'])).toBe(samplePdf.byteLength);
      expect(Buffer.compare(it.rawPayload, Buffer.from(samplePdf))).toBe(0);

      const en = await t.as(token, { method: 'GET', url: `/api/v1/certificates/download/en/${created.id}` });
      expect(en.statusCode).toBe(200);
      expect(en.headers['content-type']).toBe('application/pdf');
      const name = `quality_control_checklist_${fields.lot_number}_${fields.validated_treatment_number}.pdf`;
      expect(en.headers['content-disposition']).toBe(
        `attachment; filename="${name}"; filename*=UTF-8''${name}`,
      );
      expect(en.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  });

  it('streams a file larger than one read slice intact', async () => {
    const big = await makePdf('Scansione grande', DOWNLOAD_CHUNK_BYTES * 2 + 1234);
    expect(big.byteLength).toBeGreaterThan(DOWNLOAD_CHUNK_BYTES * 2);
    const created = await uploadOk(validFields(), 'grande.pdf', big);
    const response = await t.as(care, {
      method: 'GET',
      url: `/api/v1/certificates/download/it/${created.id}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBe(big.byteLength);
    expect(Buffer.compare(response.rawPayload, Buffer.from(big))).toBe(0);
  });

  it('answers 404 "Certificate not found" for a missing id, and 404 for a malformed path', async () => {
    for (const lang of ['it', 'en']) {
      const response = await t.as(admin, {
        method: 'GET',
        url: `/api/v1/certificates/download/${lang}/999999`,
      });
      expectContract('downloadCertificate', response, 404);
      expect(response.json()).toEqual({ status: 'error', message: 'certificates.not_found', data: null });
    }
    const badLang = await t.as(admin, { method: 'GET', url: '/api/v1/certificates/download/fr/1' });
    expect(badLang.statusCode).toBe(404);
  });

  it('needs a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/certificates/download/it/1' });
    expect(response.statusCode).toBe(401);
  });

  it('builds RFC 8187 headers', () => {
    expect(contentDisposition('a "b".pdf')).toBe(
      `attachment; filename="a _b_.pdf"; filename*=UTF-8''a%20%22b%22.pdf`,
    );
  });
});

describe('DELETE /certificates/{id}', () => {
  it('deletes the certificate and both files', async () => {
    const created = await uploadOk();
    const response = await t.as(admin, { method: 'DELETE', url: `/api/v1/certificates/${created.id}` });
    expectContract('deleteCertificate', response, 200);
    expect(response.json()).toEqual({ status: 'success', message: 'certificates.deleted', data: null });
    expect((await certificateRows()).some((row) => row.id === created.id)).toBe(false);
    expect((await fileRows()).some((row) => row.certificate_id === created.id)).toBe(false);
    const download = await t.as(admin, {
      method: 'GET',
      url: `/api/v1/certificates/download/it/${created.id}`,
    });
    expect(download.statusCode).toBe(404);
  });

  it('also answers POST with _method=DELETE (method override)', async () => {
    const created = await uploadOk();
    const form = new FormData();
    form.append('_method', 'DELETE');
    const response = await t.as(admin, {
      method: 'POST',
      url: `/api/v1/certificates/${created.id}`,
      payload: form,
    });
    expect(response.statusCode).toBe(200);
    expect((await certificateRows()).some((row) => row.id === created.id)).toBe(false);
  });

  it('answers 404 "Certificate not found" for a missing id', async () => {
    const before = await dbState();
    const response = await t.as(admin, { method: 'DELETE', url: '/api/v1/certificates/999999' });
    expectContract('deleteCertificate', response, 404);
    expect(response.json()).toEqual({ status: 'error', message: 'certificates.not_found', data: null });
    expect(await dbState()).toEqual(before);
  });

  it('refuses users without canUploadCertificates and changes nothing', async () => {
    const created = await uploadOk();
    const before = await dbState();
    for (const token of [care, customer]) {
      const response = await t.as(token, { method: 'DELETE', url: `/api/v1/certificates/${created.id}` });
      expectContract('deleteCertificate', response, 403);
      expect(response.json().message).toBe('forbidden');
    }
    expect(await dbState()).toEqual(before);
  });
});

describe('GET /certificates (list)', () => {
  const lots: string[] = [];
  beforeAll(async () => {
    await t.database.pool.query('delete from certificates');
    // 25 certificates: more than a page; treatment numbers and dates run against the lot order.
    for (let n = 1; n <= PER_PAGE + 5; n++) {
      const lot = `LOT-${String(n).padStart(3, '0')}`;
      lots.push(lot);
      await uploadOk(
        {
          lot_number: lot,
          validated_treatment_number: `TR-${String(100 - n).padStart(3, '0')}`,
          expiration_date: `2027-01-${String(30 - n).padStart(2, '0')}`,
        },
        `cert-${n}.pdf`,
      );
    }
  });

  it('is open to every role with the certificates module: certificates are global', async () => {
    for (const token of [admin, care, customer]) {
      const response = await t.as(token, { method: 'GET', url: '/api/v1/certificates' });
      expectContract('listCertificates', response, 200);
      const page = response.json().data;
      expect(page.total).toBe(PER_PAGE + 5);
      expect(page.per_page).toBe(PER_PAGE);
      expect(page.page).toBe(1);
      expect(page.data).toHaveLength(PER_PAGE);
      // Default sort: lot_number ascending.
      expect(page.data.map((row: { lot_number: string }) => row.lot_number)).toEqual(lots.slice(0, PER_PAGE));
      expect(Object.keys(page.data[0]).sort()).toEqual([
        'created_at',
        'en_file_name',
        'expiration_date',
        'id',
        'it_file_name',
        'lot_number',
        'validated_treatment_number',
      ]);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/certificates' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('sorts by each sortable column, both ways, and pages', async () => {
    const get = async (query: string) =>
      (await t.as(admin, { method: 'GET', url: `/api/v1/certificates?${query}` })).json().data as {
        data: Array<{ lot_number: string; validated_treatment_number: string; expiration_date: string }>;
        page: number;
      };
    const desc = await get('sortBy=lot_number&sortDir=desc');
    expect(desc.data[0]?.lot_number).toBe(lots.at(-1));
    const byTreatment = await get('sortBy=validated_treatment_number&sortDir=asc');
    expect(byTreatment.data[0]?.validated_treatment_number).toBe('TR-075');
    expect(byTreatment.data[0]?.lot_number).toBe(lots.at(-1));
    const byDate = await get('sortBy=expiration_date&sortDir=desc');
    expect(byDate.data[0]?.expiration_date).toBe('2027-01-29');
    const second = await get('page=2');
    expect(second.page).toBe(2);
    expect(second.data.map((row) => row.lot_number)).toEqual(lots.slice(PER_PAGE));
    const badSort = await t.as(admin, { method: 'GET', url: '/api/v1/certificates?sortBy=uploaded_by' });
    expect(badSort.statusCode).toBe(422);
  });
});
