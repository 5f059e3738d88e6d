#include "TagLibShim.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <taglib/aifffile.h>
#include <taglib/apetag.h>
#include <taglib/asffile.h>
#include <taglib/fileref.h>
#include <taglib/id3v2header.h>
#include <taglib/id3v2tag.h>
#include <taglib/flacfile.h>
#include <taglib/asftag.h>
#include <taglib/mp4file.h>
#include <taglib/mp4tag.h>
#include <taglib/mpegfile.h>
#include <taglib/opusfile.h>
#include <taglib/tpropertymap.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>

struct bt_tagfile {
    TagLib::FileRef ref;
};

// Keys PropertyMap does not map on MP4 and ASF live in a freeform atom and a named attribute.
static const char *const mp4_freeform_prefix = "----:com.apple.iTunes:";

static TagLib::String freeform_name(const TagLib::String &key) { return TagLib::String(mp4_freeform_prefix) + key; }

/// The MP4 freeform items and ASF attributes PropertyMap leaves out, added under their own names.
static void add_unmapped(TagLib::File *f, TagLib::PropertyMap &map) {
    if (auto mp4 = dynamic_cast<TagLib::MP4::File *>(f)) {
        if (!mp4->tag()) return;
        const TagLib::String prefix(mp4_freeform_prefix);
        for (const auto &item : mp4->tag()->itemMap()) {
            if (!item.first.startsWith(prefix)) continue;
            TagLib::String name = item.first.substr(prefix.size());
            if (!map.contains(name) && !item.second.toStringList().isEmpty()) map.insert(name, item.second.toStringList());
        }
    } else if (auto asf = dynamic_cast<TagLib::ASF::File *>(f)) {
        if (!asf->tag()) return;
        for (const auto &entry : asf->tag()->attributeListMap()) {
            if (map.contains(entry.first) || entry.first.startsWith("WM/") || entry.second.isEmpty()) continue;
            if (entry.second.front().type() != TagLib::ASF::Attribute::UnicodeType) continue;
            TagLib::StringList values;
            for (const auto &attribute : entry.second) values.append(attribute.toString());
            map.insert(entry.first, values);
        }
    }
}

/// Sets (or with an empty value removes) a key PropertyMap rejected, where the format has a place
/// for any name. 1 when done.
static int set_unmapped(TagLib::File *f, const TagLib::String &key, const char *value) {
    bool remove = value == nullptr || value[0] == '\0';
    if (auto mp4 = dynamic_cast<TagLib::MP4::File *>(f)) {
        if (!mp4->tag()) return 0;
        if (remove) mp4->tag()->removeItem(freeform_name(key));
        else mp4->tag()->setItem(freeform_name(key), TagLib::MP4::Item(TagLib::StringList(TagLib::String(value, TagLib::String::UTF8))));
        return 1;
    }
    if (auto asf = dynamic_cast<TagLib::ASF::File *>(f)) {
        if (!asf->tag()) return 0;
        if (remove) asf->tag()->removeItem(key);
        else asf->tag()->setAttribute(key, TagLib::ASF::Attribute(TagLib::String(value, TagLib::String::UTF8)));
        return 1;
    }
    return 0;
}

static char *dup_string(const std::string &s) {
    char *out = static_cast<char *>(std::malloc(s.size() + 1));
    if (out) std::memcpy(out, s.c_str(), s.size() + 1);
    return out;
}

static bool has_audio(const TagLib::FileRef &ref) {
    return !ref.isNull() && ref.file() && ref.file()->isValid() && ref.audioProperties() && ref.audioProperties()->sampleRate() > 0;
}

/// The parser the file's first bytes call for (as AudioSniffer reads them); a null ref when none.
/// `mpeg` says whether to trust an ID3 header or a frame sync: an ID3v2 tag may front any format
/// (a FLAC with one prepended), so that weak sign is tried only after the name's parser.
static TagLib::FileRef open_by_content(const char *path, bool mpeg) {
    unsigned char head[12] = {0};
    FILE *f = std::fopen(path, "rb");
    if (!f) return TagLib::FileRef();
    size_t n = std::fread(head, 1, sizeof head, f);
    std::fclose(f);
    auto at = [&](size_t offset, const char *text) {
        size_t len = std::strlen(text);
        return n >= offset + len && std::memcmp(head + offset, text, len) == 0;
    };
    const auto average = TagLib::AudioProperties::Average;
    if (mpeg) {
        if (at(0, "ID3") || (n >= 2 && head[0] == 0xFF && (head[1] & 0xE0) == 0xE0 && (head[1] & 0x06) != 0))
            return TagLib::FileRef(new TagLib::MPEG::File(path, true, average));
        return TagLib::FileRef();
    }
    if (at(0, "fLaC")) return TagLib::FileRef(new TagLib::FLAC::File(path, true, average));
    if (at(4, "ftyp")) return TagLib::FileRef(new TagLib::MP4::File(path, true, average));
    if (at(0, "RIFF") && at(8, "WAVE")) return TagLib::FileRef(new TagLib::RIFF::WAV::File(path, true, average));
    if (at(0, "FORM") && (at(8, "AIFF") || at(8, "AIFC"))) return TagLib::FileRef(new TagLib::RIFF::AIFF::File(path, true, average));
    static const unsigned char asf[] = {0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11};
    if (n >= 8 && std::memcmp(head, asf, 8) == 0) return TagLib::FileRef(new TagLib::ASF::File(path, true, average));
    if (at(0, "OggS")) {
        TagLib::FileRef vorbis(new TagLib::Ogg::Vorbis::File(path, true, average));
        if (has_audio(vorbis)) return vorbis;
        return TagLib::FileRef(new TagLib::Ogg::Opus::File(path, true, average));
    }
    return TagLib::FileRef();
}

extern "C" {

bt_tagfile *bt_tag_open(const char *path) {
    try {
        // TagLib 1.13 picks the parser by the name: a FLAC saved as .mp3 read as MPEG with no stream
        // and no tags (its licence unread), and an Ogg saved as .mp3 got an ID3 tag put in front.
        // The decoders go by content, and so does this where the content says clearly what it is.
        TagLib::FileRef by_content = open_by_content(path, false);
        if (has_audio(by_content)) return new bt_tagfile{by_content};
        TagLib::FileRef ref(path, true, TagLib::AudioProperties::Average);
        if (has_audio(ref)) return new bt_tagfile{ref};
        TagLib::FileRef mpeg = open_by_content(path, true);
        if (has_audio(mpeg)) return new bt_tagfile{mpeg};
        if (ref.isNull() || !ref.file() || !ref.file()->isValid()) return nullptr;
        return new bt_tagfile{ref};
    } catch (...) {
        return nullptr;
    }
}

void bt_tag_close(bt_tagfile *file) {
    try { delete file; } catch (...) {}
}

char *bt_tag_container(bt_tagfile *file) {
    try {
        TagLib::File *f = file->ref.file();
        const char *name = "unknown";
        if (dynamic_cast<TagLib::MPEG::File *>(f)) name = "MPEG";
        else if (dynamic_cast<TagLib::FLAC::File *>(f)) name = "FLAC";
        else if (dynamic_cast<TagLib::Ogg::Vorbis::File *>(f)) name = "OggVorbis";
        else if (dynamic_cast<TagLib::Ogg::Opus::File *>(f)) name = "OggOpus";
        else if (dynamic_cast<TagLib::MP4::File *>(f)) name = "MP4";
        else if (dynamic_cast<TagLib::RIFF::WAV::File *>(f)) name = "WAV";
        else if (dynamic_cast<TagLib::RIFF::AIFF::File *>(f)) name = "AIFF";
        else if (dynamic_cast<TagLib::ASF::File *>(f)) name = "ASF";
        return dup_string(name);
    } catch (...) {
        return nullptr;
    }
}

int bt_tag_audio_properties(bt_tagfile *file, bt_audio_properties *out) {
    try {
        TagLib::AudioProperties *p = file->ref.audioProperties();
        if (!p) return 0;
        out->length_ms = p->lengthInMilliseconds();
        out->sample_rate = p->sampleRate();
        out->channels = p->channels();
        out->bitrate_kbps = p->bitrate();
        return 1;
    } catch (...) {
        return 0;
    }
}

char *bt_tag_properties(bt_tagfile *file) {
    try {
        TagLib::PropertyMap map = file->ref.file()->properties();
        add_unmapped(file->ref.file(), map);
        std::string out;
        for (auto it = map.begin(); it != map.end(); ++it) {
            out += it->first.to8Bit(true);
            out += '\x1f';
            bool first = true;
            for (const auto &value : it->second) {
                if (!first) out += '\x1d';
                out += value.to8Bit(true);
                first = false;
            }
            out += '\x1e';
        }
        return dup_string(out);
    } catch (...) {
        return nullptr;
    }
}

int bt_tag_is_drm_protected(bt_tagfile *file) {
    try {
        TagLib::File *f = file->ref.file();
        if (auto mp4 = dynamic_cast<TagLib::MP4::File *>(f)) {
            return mp4->audioProperties() && mp4->audioProperties()->isEncrypted() ? 1 : 0;
        }
        if (auto asf = dynamic_cast<TagLib::ASF::File *>(f)) {
            return asf->audioProperties() && asf->audioProperties()->isEncrypted() ? 1 : 0;
        }
        return 0;
    } catch (...) {
        return 0;
    }
}

int bt_tag_set_property(bt_tagfile *file, const char *key, const char *value) {
    try {
        TagLib::File *f = file->ref.file();
        TagLib::PropertyMap map = f->properties();
        TagLib::String k(key, TagLib::String::UTF8);
        if (value == nullptr || value[0] == '\0') {
            map.erase(k);
        } else {
            map.replace(k, TagLib::StringList(TagLib::String(value, TagLib::String::UTF8)));
        }
        TagLib::PropertyMap rejected = f->setProperties(map);
        // An MP3's APEv2 tag, where it has one, gets the same value: players that prefer it would
        // otherwise show the old one (an audit: APE said 90 while ID3 said 170).
        if (auto mpeg = dynamic_cast<TagLib::MPEG::File *>(f)) {
            if (mpeg->hasAPETag()) {
                TagLib::PropertyMap ape = mpeg->APETag()->properties();
                if (value == nullptr || value[0] == '\0') ape.erase(k);
                else ape.replace(k, TagLib::StringList(TagLib::String(value, TagLib::String::UTF8)));
                mpeg->APETag()->setProperties(ape);
            }
        }
        // MP4 and ASF refuse names they do not map: a freeform atom or a named attribute holds them.
        // One to remove is not in PropertyMap at all (nothing is rejected): it is removed there too
        // (`tag --clear --write` left a WMA's and an M4A's hand-set mark in place).
        bool remove = value == nullptr || value[0] == '\0';
        if (remove) { set_unmapped(f, k, value); return 1; }
        if (!rejected.contains(k)) return 1;
        return set_unmapped(f, k, value);
    } catch (...) {
        return 0;
    }
}

int bt_tag_save(bt_tagfile *file) {
    try {
        TagLib::File *f = file->ref.file();
        // FileRef::save() on MP3 would add an ID3v1 trailer the file did not have.
        if (auto mpeg = dynamic_cast<TagLib::MPEG::File *>(f)) {
            // The file's own ID3v2 version: saving a v2.4 tag as v2.3 drops the frames v2.3 lacks
            // (release date, mood, RVA2, credits). A file without one gets v2.3, which every player reads.
            auto version = TagLib::ID3v2::v3;
            if (mpeg->hasID3v2Tag() && mpeg->ID3v2Tag()->header()->majorVersion() >= 4) version = TagLib::ID3v2::v4;
            int tags = TagLib::MPEG::File::ID3v2 | (mpeg->hasAPETag() ? TagLib::MPEG::File::APE : 0);
            return mpeg->save(tags, TagLib::File::StripNone, version, TagLib::File::DoNotDuplicate) ? 1 : 0;
        }
        return f->save() ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

void bt_free(void *p) { std::free(p); }

}  // extern "C"
