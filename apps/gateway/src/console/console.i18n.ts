import { acceptedLanguages } from '../api/surveys/survey-page.i18n.js';

/** The console's words, in the two languages it speaks; `{n}` is filled by `fill`. */
const EN = {
  appName: 'Feedback console',
  skip: 'Skip to content',
  language: 'Language',
  campaigns: 'Campaigns',
  signIn: 'Sign in',
  signOut: 'Sign out',
  email: 'E-mail',
  password: 'Password',
  passwordAgain: 'Password again',
  invalidSignIn: 'The e-mail or password is not right.',
  limited: 'Too many attempts. Please try again in {n} seconds.',
  inviteTitle: 'Set your password',
  inviteInvalid: 'This invitation link is not valid or has already been used.',
  weakPassword: 'This password is too weak. Choose a longer one that is hard to guess.',
  passwordsDiffer: 'The two passwords are not the same.',
  setPassword: 'Set password',
  account: 'Account',
  chooseAccount: 'Choose an account',
  accountId: 'Account id',
  open: 'Open',
  last30: 'Last 30 days',
  name: 'Name',
  created: 'Created',
  recipients: 'Recipients',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  clicked: 'Clicked',
  answered: 'Answered',
  nps: 'NPS',
  noCampaigns: 'No campaigns yet.',
  nextPage: 'Next page',
  firstPage: 'First page',
  previousPage: 'Previous page',
  funnel: 'Funnel',
  overTime: 'Over time',
  from: 'From',
  to: 'To',
  interval: 'Interval',
  day: 'Day',
  hour: 'Hour',
  show: 'Show',
  ofSent: 'of sent',
  ofPrevious: 'of the step before',
  npsTitle: 'Net Promoter Score',
  promoters: 'Promoters',
  passives: 'Passives',
  detractors: 'Detractors',
  noAnswers: 'No answers yet.',
  sharings: 'Sharings',
  noSharings: 'No sharings of this campaign yet.',
  sharing: 'Sharing',
  status: 'Status',
  accepted: 'Accepted',
  rejected: 'Rejected',
  duplicate: 'Duplicates',
  scheduledFor: 'Scheduled for',
  phone: 'Phone',
  phoneExact: 'Phone (the whole number)',
  error: 'Error',
  encoding: 'Encoding',
  segments: 'Segments',
  updated: 'Updated',
  anyStatus: 'Any status',
  filter: 'Filter',
  noRecipients: 'No recipient matches.',
  showing: '{a}–{b} of {n}',
  cancelSharing: 'Cancel the sharing',
  cancelHint: 'Recipients not texted yet will not be texted.',
  cancelledNotice: 'Cancelled: {n} recipients will not be texted.',
  backToCampaign: 'Back to the campaign',
  chartLabel: 'Sent, delivered, clicked and answered per {interval}',
  chartTable: 'The chart’s figures',
  start: 'Start',
  notFoundTitle: 'Not found',
  notFoundBody: 'There is nothing here, or it belongs to another account.',
  forbiddenTitle: 'Not allowed',
  forbiddenBody: 'Your role does not allow this, or the form was not sent from this console. Reload the page and try again.',
  invalidTitle: 'Please check the request',
  errorTitle: 'Something went wrong',
  errorBody: 'Please try again in a moment.',
  signedInAs: 'Signed in as',
  role_owner: 'owner',
  role_member: 'member',
  role_viewer: 'viewer',
  role_operator: 'operator',
  st_scheduled: 'scheduled',
  st_queued: 'queued',
  st_sending: 'sending',
  st_sent: 'sent',
  st_retryable: 'retrying',
  st_unknown: 'unknown',
  st_delivered: 'delivered',
  st_failed: 'failed',
  st_opted_out: 'opted out',
  st_cancelled: 'cancelled',
  st_in_progress: 'in progress',
  st_completed: 'completed',
  // Single sign-on (sso.routes.ts); {name} is OIDC_DISPLAY_NAME.
  ssoOr: 'or',
  ssoButton: 'Sign in with {name}',
  ssoFailed: 'Signing in with {name} did not complete. Please try again.',
  ssoUnavailable: '{name} cannot be reached at the moment. Please try again later, or sign in with your password.',
  ssoNotAllowed:
    'This {name} account cannot sign in here. Ask an owner of your account to add you as a user with the e-mail address {name} has verified for you.',
};

export type Words = typeof EN;

const TR: Words = {
  appName: 'Geri bildirim konsolu',
  skip: 'İçeriğe geç',
  language: 'Dil',
  campaigns: 'Kampanyalar',
  signIn: 'Giriş yap',
  signOut: 'Çıkış yap',
  email: 'E-posta',
  password: 'Parola',
  passwordAgain: 'Parola (tekrar)',
  invalidSignIn: 'E-posta veya parola doğru değil.',
  limited: 'Çok fazla deneme yapıldı. Lütfen {n} saniye sonra tekrar deneyin.',
  inviteTitle: 'Parolanızı belirleyin',
  inviteInvalid: 'Bu davet bağlantısı geçerli değil ya da daha önce kullanılmış.',
  weakPassword: 'Bu parola çok zayıf. Daha uzun ve tahmin edilmesi zor bir parola seçin.',
  passwordsDiffer: 'İki parola aynı değil.',
  setPassword: 'Parolayı kaydet',
  account: 'Hesap',
  chooseAccount: 'Bir hesap seçin',
  accountId: 'Hesap kimliği',
  open: 'Aç',
  last30: 'Son 30 gün',
  name: 'Ad',
  created: 'Oluşturulma',
  recipients: 'Alıcılar',
  sent: 'Gönderilen',
  delivered: 'İletilen',
  failed: 'Başarısız',
  clicked: 'Tıklanan',
  answered: 'Yanıtlanan',
  nps: 'NPS',
  noCampaigns: 'Henüz kampanya yok.',
  nextPage: 'Sonraki sayfa',
  firstPage: 'İlk sayfa',
  previousPage: 'Önceki sayfa',
  funnel: 'Dönüşüm hunisi',
  overTime: 'Zaman içinde',
  from: 'Başlangıç',
  to: 'Bitiş',
  interval: 'Aralık',
  day: 'Gün',
  hour: 'Saat',
  show: 'Göster',
  ofSent: 'gönderilenin',
  ofPrevious: 'bir önceki adımın',
  npsTitle: 'Net Tavsiye Skoru',
  promoters: 'Destekçiler',
  passives: 'Pasifler',
  detractors: 'Kötüleyenler',
  noAnswers: 'Henüz yanıt yok.',
  sharings: 'Gönderimler',
  noSharings: 'Bu kampanyanın henüz gönderimi yok.',
  sharing: 'Gönderim',
  status: 'Durum',
  accepted: 'Kabul edilen',
  rejected: 'Reddedilen',
  duplicate: 'Tekrarlanan',
  scheduledFor: 'Planlanan zaman',
  phone: 'Telefon',
  phoneExact: 'Telefon (numaranın tamamı)',
  error: 'Hata',
  encoding: 'Kodlama',
  segments: 'Parça',
  updated: 'Güncellenme',
  anyStatus: 'Tüm durumlar',
  filter: 'Filtrele',
  noRecipients: 'Eşleşen alıcı yok.',
  showing: '{n} kayıttan {a}–{b}',
  cancelSharing: 'Gönderimi iptal et',
  cancelHint: 'Henüz SMS gönderilmemiş alıcılara gönderilmeyecek.',
  cancelledNotice: 'İptal edildi: {n} alıcıya SMS gönderilmeyecek.',
  backToCampaign: 'Kampanyaya dön',
  chartLabel: '{interval} başına gönderilen, iletilen, tıklanan ve yanıtlanan',
  chartTable: 'Grafiğin rakamları',
  start: 'Başlangıç',
  notFoundTitle: 'Bulunamadı',
  notFoundBody: 'Burada bir şey yok ya da başka bir hesaba ait.',
  forbiddenTitle: 'İzin verilmedi',
  forbiddenBody: 'Rolünüz buna izin vermiyor ya da form bu konsoldan gönderilmedi. Sayfayı yenileyip tekrar deneyin.',
  invalidTitle: 'Lütfen isteği kontrol edin',
  errorTitle: 'Bir sorun oluştu',
  errorBody: 'Lütfen biraz sonra tekrar deneyin.',
  signedInAs: 'Oturum',
  role_owner: 'sahip',
  role_member: 'üye',
  role_viewer: 'izleyici',
  role_operator: 'operatör',
  st_scheduled: 'planlandı',
  st_queued: 'sırada',
  st_sending: 'gönderiliyor',
  st_sent: 'gönderildi',
  st_retryable: 'yeniden denenecek',
  st_unknown: 'belirsiz',
  st_delivered: 'iletildi',
  st_failed: 'başarısız',
  st_opted_out: 'SMS istemiyor',
  st_cancelled: 'iptal edildi',
  st_in_progress: 'sürüyor',
  st_completed: 'tamamlandı',
  // Tek oturum açma (sso.routes.ts); {name}: OIDC_DISPLAY_NAME.
  ssoOr: 'veya',
  ssoButton: '{name} ile giriş yap',
  ssoFailed: '{name} ile giriş tamamlanamadı. Lütfen yeniden deneyin.',
  ssoUnavailable: '{name} şu anda yanıt vermiyor. Lütfen daha sonra yeniden deneyin ya da parolanızla giriş yapın.',
  ssoNotAllowed:
    'Bu {name} hesabıyla buraya giriş yapılamaz. Hesabınızın bir sahibinden, {name} tarafından doğrulanmış e-posta adresinizle sizi kullanıcı olarak eklemesini isteyin.',
};

export type ConsoleLang = 'en' | 'tr';
export const CONSOLE_LANGS: readonly ConsoleLang[] = ['en', 'tr'];
const WORDS: Record<ConsoleLang, Words> = { en: EN, tr: TR };

/** A language tag as the console speaks it, or undefined. */
export function consoleLang(tag: string | undefined): ConsoleLang | undefined {
  const primary = tag?.toLowerCase().split('-')[0];
  return CONSOLE_LANGS.find((l) => l === primary);
}

/** ?lang=, then the `lang` cookie, then Accept-Language, then English. */
export function pickConsoleLang(query: string | undefined, cookie: string | undefined, acceptLanguage: string | undefined): ConsoleLang {
  for (const tag of [query, cookie, ...acceptedLanguages(acceptLanguage)]) {
    const lang = consoleLang(tag);
    if (lang) return lang;
  }
  return 'en';
}

export const wordsFor = (lang: ConsoleLang): Words => WORDS[lang];

/** A text with `{name}` filled in. */
export const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (m, k: string) => String(values[k] ?? m));

/** A status word (sharing or recipient); an unknown status shows as it came. */
export function statusWord(w: Words, status: string): string {
  return (w as unknown as Record<string, string>)[`st_${status}`] ?? status;
}

const made = new Map<string, Formatters>();

/** Numbers, fractions and dates as people of the language write them (made once per language and zone: Intl is slow to build). */
export function formatters(lang: ConsoleLang, timeZone: string): Formatters {
  const key = `${lang} ${timeZone}`;
  let f = made.get(key);
  if (!f) made.set(key, (f = makeFormatters(lang, timeZone)));
  return f;
}

function makeFormatters(lang: ConsoleLang, timeZone: string) {
  const locale = lang === 'tr' ? 'tr-TR' : 'en-GB';
  const int = new Intl.NumberFormat(locale);
  const pct = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone });
  const hour = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone });
  const when = (f: Intl.DateTimeFormat) => (iso: string) => (iso ? f.format(new Date(iso)) : '');
  return {
    int: (n: number) => int.format(n),
    pct: (x: number | undefined) => (x === undefined ? '–' : pct.format(x)),
    dateTime: when(dateTime),
    date: when(date),
    hour: when(hour),
  };
}
export type Formatters = ReturnType<typeof makeFormatters>;
