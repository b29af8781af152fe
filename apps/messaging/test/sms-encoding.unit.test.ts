import { describe, expect, it } from 'vitest';
import {
  GSM7_DEFAULT_ALPHABET,
  GSM7_EXTENSION_TABLE,
  GSM7_TURKISH_SINGLE_SHIFT_TABLE,
  isGsm7,
  smsCost,
  transliterate,
} from '../src/shared/domain/sms-encoding.js';

const plain = { turkishShift: false };
const turkish = { turkishShift: true };

describe('the GSM 7-bit tables', () => {
  it('hold the default alphabet at its septet values', () => {
    expect(GSM7_DEFAULT_ALPHABET).toHaveLength(128);
    const at = (septet: number) => GSM7_DEFAULT_ALPHABET[septet];
    expect([at(0x00), at(0x01), at(0x02), at(0x03), at(0x04), at(0x05)]).toEqual(['@', '£', '$', '¥', 'è', 'é']);
    expect([at(0x09), at(0x0a), at(0x0d), at(0x10), at(0x11), at(0x1b), at(0x1f)]).toEqual(['Ç', '\n', '\r', 'Δ', '_', '', 'É']);
    expect([at(0x24), at(0x40), at(0x5b), at(0x5c), at(0x5d), at(0x5e), at(0x5f)]).toEqual(['¤', '¡', 'Ä', 'Ö', 'Ñ', 'Ü', '§']);
    expect([at(0x60), at(0x7b), at(0x7c), at(0x7d), at(0x7e), at(0x7f)]).toEqual(['¿', 'ä', 'ö', 'ñ', 'ü', 'à']);
    expect(new Set(GSM7_DEFAULT_ALPHABET).size).toBe(128);
  });

  it('has Ç but not ç, and none of á í ó ú ` in the default alphabet', () => {
    expect(isGsm7('Ç')).toBe(true);
    for (const c of ['ç', 'á', 'í', 'ó', 'ú', '`', 'ş', 'ğ', 'ı', 'İ', 'Ş', 'Ğ']) expect(isGsm7(c), c).toBe(false);
  });

  it('counts every default alphabet character one septet and every extension character two', () => {
    const basic = GSM7_DEFAULT_ALPHABET.join('');
    expect(smsCost(basic, plain)).toEqual({ encoding: 'gsm7', segments: 1, characters: 127 });
    // 80 extension characters are 160 septets: one message; 81 are 162: two.
    const ext = GSM7_EXTENSION_TABLE.repeat(8);
    expect(ext).toHaveLength(80);
    expect(smsCost(ext, plain)).toEqual({ encoding: 'gsm7', segments: 1, characters: 80 });
    expect(smsCost(ext + '€', plain).segments).toBe(2);
  });

  it('has the extension characters and Ğ İ Ş ç ğ ı ş in the Turkish single shift table', () => {
    for (const c of GSM7_EXTENSION_TABLE) expect(GSM7_TURKISH_SINGLE_SHIFT_TABLE).toContain(c);
    expect([...GSM7_TURKISH_SINGLE_SHIFT_TABLE].filter((c) => !GSM7_EXTENSION_TABLE.includes(c)).sort()).toEqual(
      ['Ğ', 'İ', 'Ş', 'ç', 'ğ', 'ı', 'ş'].sort(),
    );
  });
});

describe('gsm7 segments', () => {
  it('sends an empty text as one message', () => {
    expect(smsCost('', plain)).toEqual({ encoding: 'gsm7', segments: 1, characters: 0 });
  });

  it('holds 160 septets in one message and 153 in each part of a longer one', () => {
    const a = (n: number) => smsCost('a'.repeat(n), plain).segments;
    expect(a(1)).toBe(1);
    expect(a(160)).toBe(1);
    expect(a(161)).toBe(2);
    expect(a(306)).toBe(2);
    expect(a(307)).toBe(3);
    expect(a(459)).toBe(3);
    expect(a(460)).toBe(4);
  });

  it('counts an extension character two septets', () => {
    expect(smsCost('a'.repeat(158) + '€', plain)).toEqual({ encoding: 'gsm7', segments: 1, characters: 159 });
    // 159 + 2 = 161 septets.
    expect(smsCost('a'.repeat(159) + '€', plain)).toEqual({ encoding: 'gsm7', segments: 2, characters: 160 });
    expect(smsCost('[]'.repeat(40), plain).segments).toBe(1); // 80 × 2 = 160 septets
    expect(smsCost('[x]'.repeat(32), plain).segments).toBe(1); // 32 × 5 = 160 septets
    expect(smsCost('[x]'.repeat(32) + 'x', plain).segments).toBe(2);
  });

  it('never splits an escape pair across parts', () => {
    // 152 + 2 + 152 = 306 septets, but "€" would end part one on its escape septet: it opens
    // part two (152 septets in part one), and the last "a" spills into a third.
    expect(smsCost('a'.repeat(152) + '€' + 'a'.repeat(152), plain).segments).toBe(3);
    // One "a" earlier, the pair ends part one exactly: 153 + 153.
    expect(smsCost('a'.repeat(151) + '€' + 'a'.repeat(153), plain).segments).toBe(2);
  });

  it('counts line breaks and the GSM accented letters as one septet', () => {
    expect(smsCost('Çok güzel!\r\nÖdeme: 5 €, süre 10 dk.', plain)).toEqual({ encoding: 'gsm7', segments: 1, characters: 35 });
  });
});

describe('ucs2 segments', () => {
  const cyr = (n: number) => smsCost('ж'.repeat(n), plain);

  it('holds 70 units in one message and 67 in each part of a longer one', () => {
    expect(cyr(70)).toEqual({ encoding: 'ucs2', segments: 1, characters: 70 });
    expect(cyr(71)).toEqual({ encoding: 'ucs2', segments: 2, characters: 71 });
    expect(cyr(134).segments).toBe(2);
    expect(cyr(135).segments).toBe(3);
  });

  it('takes ucs2 for one character outside the GSM alphabet', () => {
    expect(smsCost('a'.repeat(100) + '`', plain)).toEqual({ encoding: 'ucs2', segments: 2, characters: 101 });
  });

  it('counts an emoji two units but one character', () => {
    expect(smsCost('😀', plain)).toEqual({ encoding: 'ucs2', segments: 1, characters: 1 });
    expect(smsCost('a'.repeat(68) + '😀', plain)).toEqual({ encoding: 'ucs2', segments: 1, characters: 69 });
    expect(smsCost('a'.repeat(69) + '😀', plain)).toEqual({ encoding: 'ucs2', segments: 2, characters: 70 });
  });

  it('never splits a surrogate pair across parts', () => {
    // 66 + 2 + 66 = 134 units, but the emoji would end part one on its high surrogate: it opens
    // part two (66 units in part one), and the last "ж" spills into a third.
    expect(smsCost('ж'.repeat(66) + '😀' + 'ж'.repeat(66), plain)).toEqual({ encoding: 'ucs2', segments: 3, characters: 133 });
    expect(smsCost('ж'.repeat(65) + '😀' + 'ж'.repeat(67), plain).segments).toBe(2);
  });
});

describe('the Turkish single shift', () => {
  const invitation = 'Sayın Ayşe Yılmaz, mağazamızdaki deneyiminizi değerlendirir misiniz? Anketimize katılın: https://s.example/Ab1';

  it('makes a Turkish text gsm7-tr instead of ucs2, and transliteration makes it gsm7', () => {
    expect([...invitation]).toHaveLength(110);
    // ı ×10, ş ×1, ğ ×2: 13 characters of two septets, 110 + 13 = 123 septets.
    expect(smsCost(invitation, plain)).toEqual({ encoding: 'ucs2', segments: 2, characters: 110 });
    expect(smsCost(invitation, turkish)).toEqual({ encoding: 'gsm7-tr', segments: 1, characters: 110 });
    const ascii = transliterate(invitation);
    expect(ascii).toBe('Sayin Ayse Yilmaz, magazamizdaki deneyiminizi degerlendirir misiniz? Anketimize katilin: https://s.example/Ab1');
    expect(smsCost(ascii, plain)).toEqual({ encoding: 'gsm7', segments: 1, characters: 110 });
  });

  it('holds 155 septets in one message and 149 in each part of a longer one', () => {
    const tr = (n: number) => smsCost('ş' + 'a'.repeat(n - 2), turkish);
    expect(tr(155)).toEqual({ encoding: 'gsm7-tr', segments: 1, characters: 154 });
    expect(tr(156).segments).toBe(2);
    expect(tr(298).segments).toBe(2);
    expect(tr(299).segments).toBe(3);
    expect(smsCost('ı'.repeat(77), turkish).segments).toBe(1); // 154 septets
    expect(smsCost('ı'.repeat(78), turkish).segments).toBe(2); // 156 septets
  });

  it('never splits a shift pair across parts', () => {
    // 148 + 2 + 148 = 298 septets, but "ğ" would end part one on its escape septet.
    expect(smsCost('a'.repeat(148) + 'ğ' + 'a'.repeat(148), turkish).segments).toBe(3);
    expect(smsCost('a'.repeat(147) + 'ğ' + 'a'.repeat(149), turkish).segments).toBe(2);
  });

  it('keeps gsm7 for a text the default alphabet covers, extension characters included', () => {
    expect(smsCost('Çok güzel! {5 €}', turkish).encoding).toBe('gsm7');
    expect(smsCost('a'.repeat(160), turkish)).toEqual({ encoding: 'gsm7', segments: 1, characters: 160 });
  });

  it('counts the extension characters two septets in gsm7-tr too', () => {
    expect(smsCost('ş€', turkish)).toEqual({ encoding: 'gsm7-tr', segments: 1, characters: 2 });
    expect(smsCost('ş' + '€'.repeat(76), turkish).segments).toBe(1); // 154 septets
    expect(smsCost('ş' + '€'.repeat(77), turkish).segments).toBe(2); // 156 septets
  });

  it('takes ucs2 when a character is outside the shift table too', () => {
    expect(smsCost('Teşekkürler 😀', turkish)).toEqual({ encoding: 'ucs2', segments: 1, characters: 13 });
    expect(smsCost('Teşekkürler á', turkish).encoding).toBe('ucs2');
  });
});

describe('transliterate', () => {
  it('maps the Turkish letters outside the GSM alphabet and keeps Ç', () => {
    expect(transliterate('şŞğĞıİçÇâîûÂÎÛ')).toBe('sSgGiIcÇaiuAIU');
  });

  it('keeps every character of the default alphabet and its extension table', () => {
    const all = GSM7_DEFAULT_ALPHABET.join('') + GSM7_EXTENSION_TABLE;
    expect(transliterate(all)).toBe(all);
    expect(transliterate('é ü ö Ü Ö ä Ñ è à É ß Ø')).toBe('é ü ö Ü Ö ä Ñ è à É ß Ø');
  });

  it('maps typographic punctuation and spaces', () => {
    expect(transliterate('‘a’ “b” «c» 1–2 — x… `y´')).toBe(`'a' "b" "c" 1-2 - x... 'y'`);
    expect(transliterate('a\u00A0b\u202Fc\u200Bd\u00ADe\uFEFF')).toBe('a b cde');
  });

  it('maps accented letters outside the GSM alphabet to their base letters', () => {
    expect(transliterate('áíóúãõÊëÀÁňřőžĆ')).toBe('aiouaoEeAAnrozC');
    expect(transliterate('œŒłŁđ')).toBe('oeOElLd');
    expect(transliterate('ﬁ Ａ²')).toBe('fi A2');
  });

  it('composes a decomposed text first, so a decomposed é stays é', () => {
    expect(transliterate('e\u0301 u\u0308 s\u0327')).toBe('é ü s');
    expect(transliterate('x\u0308')).toBe('x');
  });

  it('keeps what it cannot map, so the text stays ucs2', () => {
    expect(transliterate('Привет 😀 日本')).toBe('Привет 😀 日本');
    expect(smsCost(transliterate('Teşekkürler 😀'), plain)).toEqual({ encoding: 'ucs2', segments: 1, characters: 13 });
  });

  it('leaves every result of a mapped text gsm7', () => {
    const text = 'İstanbul’da “kampanya” – %20 indirim… Ağustos’ta görüşürüz: Çarşı, Ödemiş, Şişli, Kâğıthane';
    const out = transliterate(text);
    expect(out).toBe(`Istanbul'da "kampanya" - %20 indirim... Agustos'ta görüsürüz: Çarsi, Ödemis, Sisli, Kagithane`);
    expect(smsCost(out, plain).encoding).toBe('gsm7');
  });
});
