import type { Flow } from '@feedback/proto/feedback/flow/v1/flow';

/** The page's own words; languages without an entry use English. Flow text comes from the flow. */
const CHROME = {
  en: {
    hello: 'Hello',
    send: 'Send',
    required: 'required',
    choose: 'Choose…',
    yes: 'Yes',
    no: 'No',
    fixErrors: 'Please check the marked answers.',
    thanksTitle: 'Thank you!',
    thanksBody: 'Your answers have been received.',
    answeredTitle: 'Already answered',
    answeredBody: 'This survey has already been answered. Thank you!',
    expiredTitle: 'Link expired',
    expiredBody: 'This survey link has expired.',
    notFoundTitle: 'Survey not found',
    notFoundBody: 'This link is not valid. Please check that it was copied completely.',
    forbiddenTitle: 'Not allowed',
    forbiddenBody: 'Answers can only be sent from the survey page itself.',
    errorTitle: 'Something went wrong',
    errorBody: 'Please try again in a moment.',
    optOut: 'Do not text me again',
    optedOutTitle: 'No more text messages',
    optedOutBody: 'Your number has been taken off our SMS list.',
  },
  tr: {
    hello: 'Merhaba',
    send: 'Gönder',
    required: 'zorunlu',
    choose: 'Seçiniz…',
    yes: 'Evet',
    no: 'Hayır',
    fixErrors: 'Lütfen işaretli cevapları kontrol edin.',
    thanksTitle: 'Teşekkürler!',
    thanksBody: 'Cevaplarınız alındı.',
    answeredTitle: 'Zaten cevaplandı',
    answeredBody: 'Bu anket zaten cevaplandı. Teşekkürler!',
    expiredTitle: 'Bağlantının süresi doldu',
    expiredBody: 'Bu anket bağlantısının süresi doldu.',
    notFoundTitle: 'Anket bulunamadı',
    notFoundBody: 'Bu bağlantı geçerli değil. Lütfen tamamen kopyalandığını kontrol edin.',
    forbiddenTitle: 'İzin verilmedi',
    forbiddenBody: 'Cevaplar yalnızca anket sayfasının kendisinden gönderilebilir.',
    errorTitle: 'Bir sorun oluştu',
    errorBody: 'Lütfen biraz sonra tekrar deneyin.',
    optOut: 'Bana bir daha SMS gönderme',
    optedOutTitle: 'Artık SMS gönderilmeyecek',
    optedOutBody: 'Numaranız SMS listemizden çıkarıldı.',
  },
} satisfies Record<string, Record<string, string>>;

export type Chrome = (typeof CHROME)['en'];

const primary = (tag: string) => tag.toLowerCase().split('-')[0]!;

export const chromeFor = (lang: string): Chrome => (CHROME as Record<string, Chrome>)[primary(lang)] ?? CHROME.en;

/** The languages a flow has text in, in the order they first appear (the first is the flow's own). */
export function flowLanguages(flow: Flow): string[] {
  const langs = new Set<string>();
  for (const q of flow.questions) for (const lang of Object.keys(q.body)) langs.add(lang);
  return [...langs];
}

/** Accept-Language tags, best first (q=0 dropped). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((l) => l.tag && l.tag !== '*' && l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((l) => l.tag);
}

/** The first wanted language the flow has (exact tag, then the same primary language), else the flow's first. */
export function pickLanguage(available: string[], wanted: (string | undefined)[]): string {
  for (const want of wanted) {
    if (!want) continue;
    const exact = available.find((a) => a.toLowerCase() === want.toLowerCase());
    if (exact) return exact;
    const sameBase = available.find((a) => primary(a) === primary(want));
    if (sameBase) return sameBase;
  }
  return available[0] ?? 'en';
}

/** A text of the flow in the page's language, else the flow's first language that has it. */
export function localized(text: Record<string, string>, lang: string, available: string[]): string {
  if (text[lang] !== undefined) return text[lang];
  const fallback = available.find((l) => text[l] !== undefined) ?? Object.keys(text)[0];
  return fallback === undefined ? '' : (text[fallback] ?? '');
}
