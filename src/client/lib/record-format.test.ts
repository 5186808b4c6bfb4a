import { describe, expect, it } from 'vitest';
import { notesText, statusMessageId, truncateName } from './record-format';

describe('truncateName', () => {
  it('keeps names up to 27 characters and cuts longer ones with "..."', () => {
    expect(truncateName('Clinica San Marco')).toBe('Clinica San Marco');
    const exact = 'x'.repeat(27);
    expect(truncateName(exact)).toBe(exact);
    expect(truncateName('Studio Dentistico Lago Maggiore')).toBe('Studio Dentistico Lago Magg...');
    expect(truncateName(`${'é'.repeat(27)}ü`)).toBe(`${'é'.repeat(27)}...`);
  });
});

describe('statusMessageId', () => {
  it('names codes 0 to 3 and leaves other values raw', () => {
    expect(statusMessageId(0)).toBe('sterilizations.status.ok');
    expect(statusMessageId(1)).toBe('sterilizations.status.nulled');
    expect(statusMessageId(2)).toBe('sterilizations.status.lamp_malfunction');
    expect(statusMessageId(3)).toBe('sterilizations.status.probe_malfunction');
    expect(statusMessageId(4)).toBeNull();
    expect(statusMessageId(-1)).toBeNull();
    expect(statusMessageId('0')).toBeNull();
  });
});

describe('notesText', () => {
  it('shows text and treats anything else as empty', () => {
    expect(notesText('lamp replaced')).toBe('lamp replaced');
    expect(notesText(null)).toBe('');
    expect(notesText({ a: 1 })).toBe('');
  });
});
