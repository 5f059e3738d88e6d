// A C API over TagLib 1.13's FileRef/PropertyMap, which the C API (tag_c.h) cannot reach.
// Every function catches C++ exceptions; strings returned are malloc'd and freed with bt_free.
#ifndef BEATTAG_TAGLIB_SHIM_H
#define BEATTAG_TAGLIB_SHIM_H
#ifdef __cplusplus
extern "C" {
#endif

typedef struct bt_tagfile bt_tagfile;

typedef struct {
    int length_ms;
    int sample_rate;
    int channels;
    int bitrate_kbps;
} bt_audio_properties;

/// Opens a file for reading (and later saving). NULL when TagLib does not recognise it.
bt_tagfile *bt_tag_open(const char *path);
void bt_tag_close(bt_tagfile *file);

/// Container name as TagLib sees it: "MPEG", "FLAC", "OggVorbis", "OggOpus", "MP4", "WAV", "AIFF", "ASF", ...
char *bt_tag_container(bt_tagfile *file);

/// 1 when audio properties were read.
int bt_tag_audio_properties(bt_tagfile *file, bt_audio_properties *out);

/// All properties, serialised: KEY \x1f VALUE (\x1d VALUE)* \x1e ...
char *bt_tag_properties(bt_tagfile *file);

/// True (1) when the container marks the stream as DRM-protected (MP4 with encrypted sample entries).
int bt_tag_is_drm_protected(bt_tagfile *file);

/// Sets one property (an empty value removes it) in memory; bt_tag_save writes the file.
int bt_tag_set_property(bt_tagfile *file, const char *key, const char *value);
/// Saves the tags. MP3 files get ID3v2.3 only, with no ID3v1 trailer added.
int bt_tag_save(bt_tagfile *file);

void bt_free(void *p);

#ifdef __cplusplus
}
#endif
#endif
