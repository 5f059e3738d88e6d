// FFmpeg (libavformat, libavcodec, libavutil, libswresample), opened on first use: only when
// libsndfile refuses a file (M4A, WMA, …) or the render resamples. Linked, it mapped some hundred
// shared objects (its network, video and hardware stacks) into every command.
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mathematics.h>
#include <libswresample/swresample.h>

#include "LibraryLoader.h"
#include "Stubs.h"

#define PACKAGES "libavformat59 libavcodec59 libavutil57 libswresample4"

#define FUNCTIONS(X, V)                                                                                                   \
    X(int, av_find_best_stream,                                                                                           \
      (AVFormatContext * ic, enum AVMediaType type, int wanted, int related, const AVCodec **decoder, int flags),          \
      (ic, type, wanted, related, decoder, flags))                                                                       \
    X(int, av_read_frame, (AVFormatContext * s, AVPacket *pkt), (s, pkt))                                                 \
    X(AVDictionaryEntry *, av_dict_get, (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), \
      (m, key, prev, flags))                                                                                             \
    V(avformat_close_input, (AVFormatContext * *s), (s))                                                                  \
    X(int, avformat_find_stream_info, (AVFormatContext * ic, AVDictionary **options), (ic, options))                      \
    X(int, avformat_open_input, (AVFormatContext * *ps, const char *url, const AVInputFormat *fmt, AVDictionary **options), \
      (ps, url, fmt, options))                                                                                            \
    X(AVPacket *, av_packet_alloc, (void), ())                                                                            \
    V(av_packet_free, (AVPacket * *pkt), (pkt))                                                                           \
    V(av_packet_unref, (AVPacket * pkt), (pkt))                                                                           \
    X(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))                                         \
    V(avcodec_free_context, (AVCodecContext * *avctx), (avctx))                                                           \
    X(const char *, avcodec_get_name, (enum AVCodecID id), (id))                                                          \
    X(int, avcodec_open2, (AVCodecContext * avctx, const AVCodec *codec, AVDictionary **options), (avctx, codec, options)) \
    X(int, avcodec_parameters_to_context, (AVCodecContext * codec, const AVCodecParameters *par), (codec, par))           \
    X(int, avcodec_receive_frame, (AVCodecContext * avctx, AVFrame *frame), (avctx, frame))                               \
    X(int, avcodec_send_packet, (AVCodecContext * avctx, const AVPacket *avpkt), (avctx, avpkt))                          \
    X(unsigned, avcodec_version, (void), ())                                                                              \
    X(int, av_channel_layout_copy, (AVChannelLayout * dst, const AVChannelLayout *src), (dst, src))                      \
    V(av_channel_layout_default, (AVChannelLayout * layout, int channels), (layout, channels))                           \
    V(av_channel_layout_uninit, (AVChannelLayout * layout), (layout))                                                    \
    X(AVFrame *, av_frame_alloc, (void), ())                                                                              \
    V(av_frame_free, (AVFrame * *frame), (frame))                                                                         \
    V(av_frame_unref, (AVFrame * frame), (frame))                                                                         \
    V(av_log_set_level, (int level), (level))                                                                             \
    X(int64_t, av_rescale, (int64_t a, int64_t b, int64_t c), (a, b, c))                                                  \
    X(int64_t, av_rescale_q, (int64_t a, AVRational bq, AVRational cq), (a, bq, cq))                                      \
    X(int, av_strerror, (int errnum, char *buf, size_t size), (errnum, buf, size))                                        \
    X(int, swr_alloc_set_opts2,                                                                                           \
      (struct SwrContext * *ps, AVChannelLayout *out_layout, enum AVSampleFormat out_format, int out_rate,                \
       AVChannelLayout *in_layout, enum AVSampleFormat in_format, int in_rate, int log_offset, void *log_ctx),            \
      (ps, out_layout, out_format, out_rate, in_layout, in_format, in_rate, log_offset, log_ctx))                         \
    X(int, swr_convert, (struct SwrContext * s, uint8_t **out, int out_count, const uint8_t **in, int in_count),          \
      (s, out, out_count, in, in_count))                                                                                  \
    V(swr_free, (struct SwrContext * *s), (s))                                                                            \
    X(int, swr_get_out_samples, (struct SwrContext * s, int in_samples), (s, in_samples))                                \
    X(int, swr_init, (struct SwrContext * s), (s))

static int open_handles(bt_library_state *state, void **handles) {
    // libavutil first: the others need it, and its absence is the clearest message.
    return (handles[0] = bt_open_library(state, "BEATTAG_LIBAVUTIL", "libavutil.so.57", "FFmpeg (libavutil)", PACKAGES)) &&
           (handles[1] = bt_open_library(state, "BEATTAG_LIBAVCODEC", "libavcodec.so.59", "FFmpeg (libavcodec)", PACKAGES)) &&
           (handles[2] = bt_open_library(state, "BEATTAG_LIBAVFORMAT", "libavformat.so.59", "FFmpeg (libavformat)", PACKAGES)) &&
           (handles[3] = bt_open_library(state, "BEATTAG_LIBSWRESAMPLE", "libswresample.so.4", "FFmpeg (libswresample)", PACKAGES));
}

BT_LIBRARY(bt_ffmpeg_load, 4)
