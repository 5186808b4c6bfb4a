import { describe, expect, it } from 'vitest';
import { csvLine, numberCell, textCell } from './csv.ts';

describe('textCell', () => {
  it('quotes per RFC 4180 and guards formulas', () => {
    expect(textCell('plain')).toBe('plain');
    expect(textCell(null)).toBe('');
    expect(textCell('a,b')).toBe('"a,b"');
    expect(textCell('say "hi"')).toBe('"say ""hi"""');
    expect(textCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(textCell('-2+3')).toBe("'-2+3");
    expect(textCell('=1+1, ok')).toBe(`"'=1+1, ok"`);
    expect(textCell('\tindent')).toBe("'\tindent");
  });

  it('quotes a semicolon, the list separator of Excel in Italian and other comma-decimal locales', () => {
    expect(textCell('a;b')).toBe('"a;b"');
  });

  it('guards every part a spreadsheet could split at a separator', () => {
    expect(textCell('SEMI;=1+1;X')).toBe(`"SEMI;'=1+1;X"`);
    expect(textCell('a,+1;@SUM(A1)')).toBe(`"a,'+1;'@SUM(A1)"`);
    expect(textCell('a; -1')).toBe(`"a;' -1"`);
    expect(textCell('LOT-7;B-2')).toBe('"LOT-7;B-2"');
  });
});

describe('numberCell and csvLine', () => {
  it('keep a number as the database wrote it and end each line with CRLF', () => {
    expect(numberCell(-7.25)).toBe('-7.25');
    expect(numberCell(null)).toBe('');
    expect(csvLine(['1', textCell('x;y')])).toBe('1,"x;y"\r\n');
  });
});
