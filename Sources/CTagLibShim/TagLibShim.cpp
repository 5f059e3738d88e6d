#include "TagLibShim.h"

#include <cstdlib>
#include <cstring>
#include <string>

#include <taglib/aifffile.h>
#include <taglib/asffile.h>
#include <taglib/fileref.h>
#include <taglib/flacfile.h>
#include <taglib/mp4file.h>
#include <taglib/mpegfile.h>
#include <taglib/opusfile.h>
#include <taglib/tpropertymap.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>

struct bt_tagfile {
    TagLib::FileRef ref;
};

static char *dup_string(const std::string &s) {
    char *out = static_cast<char *>(std::malloc(s.size() + 1));
    if (out) std::memcpy(out, s.c_str(), s.size() + 1);
    return out;
}

extern "C" {

bt_tagfile *bt_tag_open(const char *path) {
    try {
        TagLib::FileRef ref(path, true, TagLib::AudioProperties::Average);
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
        return rejected.contains(k) ? 0 : 1;
    } catch (...) {
        return 0;
    }
}

int bt_tag_save(bt_tagfile *file) {
    try {
        TagLib::File *f = file->ref.file();
        // FileRef::save() on MP3 would add an ID3v1 trailer the file did not have.
        if (auto mpeg = dynamic_cast<TagLib::MPEG::File *>(f)) {
            return mpeg->save(TagLib::MPEG::File::ID3v2, TagLib::File::StripNone, TagLib::ID3v2::v3,
                              TagLib::File::DoNotDuplicate) ? 1 : 0;
        }
        return f->save() ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

void bt_free(void *p) { std::free(p); }

}  // extern "C"
