"""The paragraphs of the multi-script set: a few plain sentences in each language, written for
this set (no copied text), with the Tesseract language that reads it and the font it is set in.

Thai is written with a space between phrases, as Thai prose is, so lines can break there."""

from __future__ import annotations

from dataclasses import dataclass

SERIF = "NotoSerif-Regular.ttf"


@dataclass(frozen=True)
class Sample:
    key: str
    language: str
    """Tesseract's language code(s) for this text: what Tesseract is told in the comparison."""
    script: str
    font: str
    """A file of fonts-noto-core, or a face of fonts-noto-cjk ("cjk:KR")."""
    paragraphs: tuple[str, ...]
    right_to_left: bool = False


SAMPLES: tuple[Sample, ...] = (
    Sample("russian", "rus", "Cyrillic", SERIF, (
        "Москва является столицей России и крупнейшим городом страны. Город стоит на реке "
        "Москве, и в нём живут более двенадцати миллионов человек. Здесь много музеев, театров "
        "и парков, а метро считается одним из самых красивых в мире.",)),
    Sample("bulgarian", "bul", "Cyrillic", SERIF, (
        "София е столицата и най-големият град на България. Градът се намира в подножието на "
        "планината Витоша и има дълга история. Всяка година много туристи посещават нейните "
        "църкви, музеи и пазари.",)),
    Sample("greek", "ell", "Greek", SERIF, (
        "Η Αθήνα είναι η πρωτεύουσα και η μεγαλύτερη πόλη της Ελλάδας. Η πόλη έχει ιστορία "
        "πάνω από τρεις χιλιάδες χρόνια και είναι γνωστή για την Ακρόπολη. Κάθε χρόνο "
        "εκατομμύρια επισκέπτες έρχονται για να δουν τα μνημεία και τα μουσεία της.",)),
    Sample("arabic", "ara", "Arabic", "NotoNaskhArabic-Regular.ttf", (
        "القاهرة هي عاصمة مصر وأكبر مدنها، وتقع على ضفاف نهر النيل. يعيش فيها أكثر من عشرين "
        "مليون نسمة، وهي من أكبر المدن في أفريقيا. تشتهر المدينة بمساجدها القديمة وأسواقها "
        "ومتاحفها الكثيرة.",), right_to_left=True),
    Sample("persian", "fas", "Arabic", "NotoNaskhArabic-Regular.ttf", (
        "تهران پایتخت ایران و بزرگترین شهر این کشور است. این شهر در دامنه کوه البرز قرار دارد "
        "و جمعیت آن بیش از هشت میلیون نفر است. هر سال مسافران زیادی برای دیدن بازار بزرگ و "
        "موزه ملی به این شهر سفر می کنند.",), right_to_left=True),
    Sample("hebrew", "heb", "Hebrew", "NotoSerifHebrew-Regular.ttf", (
        "ירושלים היא בירת ישראל והעיר הגדולה ביותר במדינה. העיר עתיקה מאוד ויש בה מקומות "
        "קדושים לשלוש דתות. בכל שנה מגיעים אליה מיליוני מבקרים מכל העולם.",),
        right_to_left=True),
    Sample("hindi", "hin", "Devanagari", "NotoSansDevanagari-Regular.ttf", (
        "भारत दक्षिण एशिया का एक बड़ा देश है और इसकी राजधानी नई दिल्ली है। यहाँ की जनसंख्या एक "
        "अरब से अधिक है और लोग अनेक भाषाएँ बोलते हैं। हर साल लाखों पर्यटक यहाँ के मंदिर, किले "
        "और बाज़ार देखने आते हैं।",)),
    Sample("thai", "tha", "Thai", "NotoSansThai-Regular.ttf", (
        "กรุงเทพมหานครเป็นเมืองหลวง และเป็นเมืองที่ใหญ่ที่สุดของประเทศไทย "
        "เมืองนี้ตั้งอยู่ริมแม่น้ำเจ้าพระยา มีประชากรมากกว่าแปดล้านคน "
        "ทุกปีมีนักท่องเที่ยวจำนวนมาก มาเที่ยวชมวัดและตลาดน้ำ",)),
    Sample("tamil", "tam", "Tamil", "NotoSansTamil-Regular.ttf", (
        "சென்னை தமிழ்நாட்டின் தலைநகரம் ஆகும். இந்த நகரம் வங்காள விரிகுடாவின் கரையில் "
        "அமைந்துள்ளது. ஒவ்வொரு ஆண்டும் பல சுற்றுலா பயணிகள் இங்குள்ள கோயில்களையும் "
        "கடற்கரையையும் பார்க்க வருகிறார்கள்.",)),
    Sample("korean", "kor", "Hangul", "cjk:KR", (
        "서울은 대한민국의 수도이자 가장 큰 도시입니다. 도시는 한강을 따라 펼쳐져 있으며 천만 명 "
        "가까운 사람들이 살고 있습니다. 매년 많은 관광객이 궁궐과 시장을 구경하러 찾아옵니다.",)),
    Sample("vietnamese", "vie", "Latin", SERIF, (
        "Hà Nội là thủ đô của Việt Nam và là thành phố lớn thứ hai của cả nước. Thành phố nằm "
        "bên bờ sông Hồng và có lịch sử hơn một nghìn năm. Mỗi năm có rất nhiều du khách đến "
        "thăm các hồ, đền chùa và khu phố cổ.",)),
    Sample("german", "deu", "Latin", SERIF, (
        "Berlin ist die Hauptstadt Deutschlands und zugleich die größte Stadt des Landes. Die "
        "Stadt liegt an der Spree und hat fast vier Millionen Einwohner. Jedes Jahr besuchen "
        "viele Gäste ihre Museen, Theater und grünen Parks.",)),
    Sample("polish", "pol", "Latin", SERIF, (
        "Warszawa jest stolicą Polski i największym miastem w kraju. Miasto leży nad Wisłą i ma "
        "prawie dwa miliony mieszkańców. Każdego roku wielu turystów odwiedza Stare Miasto, "
        "zamek królewski i piękne ogrody.",)),
    Sample("turkish", "tur", "Latin", SERIF, (
        "Ankara, Türkiye'nin başkenti ve ikinci büyük şehridir. Şehir Anadolu'nun ortasında yer "
        "alır ve beş milyondan fazla nüfusa sahiptir. Her yıl birçok ziyaretçi müzelerini, "
        "parklarını ve tarihi kalesini görmeye gelir.",)),
    Sample("japanese", "jpn", "Japanese", "cjk:JP", (
        "東京は日本の首都であり、世界でも有数の大都市です。都内には多くの美術館や公園があり、"
        "毎年たくさんの観光客が訪れます。電車やバスが便利なので、どこへでも簡単に行くことが"
        "できます。",)),
    Sample("chinese_traditional", "chi_tra", "Han", "cjk:TC", (
        "臺北是臺灣最大的城市，也是政治與經濟的中心。這座城市有許多博物館、夜市和公園，每年"
        "吸引大量遊客前來參觀。市內的捷運系統十分方便，人們可以輕鬆到達各個地方。",)),
    Sample("english_russian", "rus+eng", "Latin+Cyrillic", SERIF, (
        "The city museum opened a new exhibition of old maps this spring.",
        "Городской музей открыл этой весной новую выставку старинных карт.",
        "Visitors can see how the borders of the region changed over three centuries.",
        "Посетители могут увидеть, как менялись границы региона за три столетия.",
    )),
)
