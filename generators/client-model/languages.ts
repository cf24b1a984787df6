/**
 * Word lists of the languages the model types (a few dozen common words each, written for the model), and how each
 * is typed: on a keyboard layout, one key per character or a dead key before an accented one, or through an input
 * method (composition) for Korean, Japanese and Chinese.
 */

export type Typing = 'keys' | 'korean' | 'kana' | 'pinyin';

export interface LanguageModel {
  /** The names the client reports for it (sizes of its word lists). */
  names: readonly string[];
  words: readonly string[];
  typing: Typing;
  /** The characters of its alphabet (for slips). */
  letters: string;
  /** Reading of each word for input methods (romaji, pinyin): what is keyed before the text is committed. */
  readings?: Readonly<Record<string, string>>;
}

const ENGLISH = `the be of and a to in he have it that for they with as not on she at by this we you do but from or
which one would all will there say who make when can more if no man out other so what time up go about than into could
state only new year some take come these know see use get like then first any work now may such give over think most
even find day also after way many must look before great back through long where much should well people down own just
because good each those feel seem how high too place little world very still nation hand old life tell write become here
show house both between need mean call develop under last right move thing general school never same another begin while
number part turn real leave might want point form off child few small since against ask late home interest large person
end open public follow during present without again hold govern around possible head consider word program problem
however lead system set order eye plan run keep face fact group play stand increase early course change help line`;

const GERMAN = `der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch es an werden aus er
hat dass sie nach wird bei einer um am sind noch wie einem über einen so zum war haben nur oder aber vor zur bis mehr
durch man sein wurde sei können schon müssen grün über schön größe straße fußball mädchen könig tür hören würde`;

const FRENCH = `le de un être et à il avoir ne je son que se qui ce dans en du elle au pour pas que vous par sur faire
plus dire me on mon lui nous comme mais pouvoir avec tout y aller voir en bien où sans tu ou leur homme si deux mari moi
vouloir te femme venir quand grand celui si notre devoir là jour prendre même votre tout rien petit encore aussi quelque
déjà été très après même où fenêtre forêt élève château garçon français hôpital été`;

const SPANISH = `de la que el en y a los se del las un por con no una su para es al lo como más pero sus le ya o este
sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra
otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él tanto esa estos mucho quienes nada muchos
cual poco ella estar estas algunas algo nosotros mañana niño corazón canción está también además años país`;

const PORTUGUESE = `de a o que e do da em um para é com não uma os no se na por mais as dos como mas foi ao ele das tem à
seu sua ou ser quando muito há nos já está eu também só pelo pela até isso ela entre era depois sem mesmo aos ter seus
quem nas me esse eles estão você tinha foram essa num nem suas meu às minha têm numa pelos elas havia seja qual será nós
coração ação não mãe irmão lição avó`;

const RUSSIAN = `и в не на я быть он с что а по это она этот к но они мы как из у который то за свой что весь год от так
о для ты же все тот мочь вы человек такой его сказать только или ещё бы себя один как уже до время если сам когда другой
вот говорить наш мой знать стать при чтобы дело жизнь кто первый очень два день её новый рука даже во со раз где там
под можно ну какой после их работа без самый потом надо хотеть ли слово идти большой должен место иметь ничто всё ёж
ёлка`;

const GREEK = `και το να η ο της με που την σε του για τα δεν είναι από τον θα στο τη οι των ένα στην μου ότι τις στα
αλλά μια στη αν ή τους πολύ τι κάτι λέει όταν έχει ήταν μας όλα έτσι μόνο τώρα πριν όπως μετά εδώ εκεί πώς γιατί ακόμα
άνθρωπος χρόνος ημέρα νερό σπίτι δουλειά λόγος`;

const HEBREW = `של את על לא הוא זה עם כל גם אני היה אם או מה יש אבל רק כי היא הם אחד בין יותר כמו עוד לו אל אחר
שלא כך אותו היום אז איך כן מי אין הזה עד כדי שם הרבה טוב בית עולם שנה יום`;

const KOREAN = `나는 그리고 사람 우리 한국 학교 시간 생각 오늘 내일 친구 가족 사랑 세상 문제 이야기 정말 다시 함께 지금
하나 처음 마음 음식 여행 공부 노래 사진 영화 도시 바다 하늘 나무 꽃 물 밥 책 길 손 눈 밤 봄 가을 겨울 여름 괜찮아 왜 과자`;

const KANA: Record<string, string> = {
  わたし: 'watasi',
  あなた: 'anata',
  ともだち: 'tomodati',
  がっこう: 'gakkou',
  せんせい: 'sensei',
  にほん: 'nihonn',
  ひと: 'hito',
  みず: 'mizu',
  やま: 'yama',
  かわ: 'kawa',
  そら: 'sora',
  はな: 'hana',
  いぬ: 'inu',
  ねこ: 'neko',
  くるま: 'kuruma',
  でんしゃ: 'densha',
  ごはん: 'gohann',
  あさ: 'asa',
  よる: 'yoru',
  ひるま: 'hiruma',
  たべもの: 'tabemono',
  のみもの: 'nomimono',
  おかあさん: 'okaasann',
  おとうさん: 'otousann',
  きょう: 'kyou',
  あした: 'asita',
  きのう: 'kinou',
  いま: 'ima',
  ここ: 'koko',
  そこ: 'soko',
  なに: 'nani',
  だれ: 'dare',
};

const HANZI: Record<string, string> = {
  我们: 'women',
  你好: 'nihao',
  中国: 'zhongguo',
  学生: 'xuesheng',
  老师: 'laoshi',
  朋友: 'pengyou',
  时间: 'shijian',
  工作: 'gongzuo',
  今天: 'jintian',
  明天: 'mingtian',
  世界: 'shijie',
  问题: 'wenti',
  东西: 'dongxi',
  生活: 'shenghuo',
  电脑: 'diannao',
  手机: 'shouji',
  吃饭: 'chifan',
  喜欢: 'xihuan',
  知道: 'zhidao',
  可以: 'keyi',
  因为: 'yinwei',
  所以: 'suoyi',
  但是: 'danshi',
  人: 'ren',
  大: 'da',
  小: 'xiao',
  水: 'shui',
  火: 'huo',
  山: 'shan',
  天: 'tian',
};

const words = (text: string) => text.split(/\s+/).filter((w) => w !== '');
const lettersOf = (list: readonly string[]) => [...new Set(list.join('').replace(/[^\p{L}]/gu, ''))].join('');

function language(
  names: string[],
  list: readonly string[],
  typing: Typing = 'keys',
  readings?: Record<string, string>,
): LanguageModel {
  return { names, words: list, typing, letters: lettersOf(list), readings };
}

export const LANGUAGES: Readonly<Record<string, LanguageModel>> = {
  english: language(['english', 'english_1k', 'english_5k', 'english_10k'], words(ENGLISH)),
  german: language(['german', 'german_1k', 'german_10k'], words(GERMAN)),
  french: language(['french', 'french_1k', 'french_2k'], words(FRENCH)),
  spanish: language(['spanish', 'spanish_1k', 'spanish_10k'], words(SPANISH)),
  portuguese: language(['portuguese', 'portuguese_1k'], words(PORTUGUESE)),
  russian: language(['russian', 'russian_1k', 'russian_10k'], words(RUSSIAN)),
  greek: language(['greek', 'greek_1k'], words(GREEK)),
  hebrew: language(['hebrew', 'hebrew_1k'], words(HEBREW)),
  korean: language(['korean', 'korean_1k'], words(KOREAN), 'korean'),
  japanese: language(['japanese_hiragana'], Object.keys(KANA), 'kana', KANA),
  chinese: language(['chinese_simplified', 'chinese_simplified_1k'], Object.keys(HANZI), 'pinyin', HANZI),
};

/** Accented letters typed with a dead key first (the accent's key, then the letter). */
export const DEAD_KEY_OF: Readonly<Record<string, string>> = {
  á: 'Quote',
  é: 'Quote',
  í: 'Quote',
  ó: 'Quote',
  ú: 'Quote',
  â: 'Digit6',
  ê: 'Digit6',
  î: 'Digit6',
  ô: 'Digit6',
  û: 'Digit6',
  à: 'Backquote',
  è: 'Backquote',
  ù: 'Backquote',
  ã: 'Backquote',
  õ: 'Backquote',
  ë: 'Quote',
  ï: 'Quote',
  ά: 'Semicolon',
  έ: 'Semicolon',
  ή: 'Semicolon',
  ί: 'Semicolon',
  ό: 'Semicolon',
  ύ: 'Semicolon',
  ώ: 'Semicolon',
};
