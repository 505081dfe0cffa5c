#ifndef CHEIF_H
#define CHEIF_H
/* libheif, loaded on first use (see CLibraryLoader.h): the functions WebImageHEIF calls, as a
   table typed from <libheif/heif.h>. Nothing links libheif (nor x265 and libde265 behind it). */

#include <libheif/heif.h>
#include <stddef.h>

#include "CLibraryLoader.h"

#define WEBIMAGE_HEIF_FUNCTIONS(X)                                                                              \
    X(heif_get_version_number_major) X(heif_get_version_number_minor) X(heif_context_alloc)                     \
    X(heif_context_free) X(heif_context_read_from_memory_without_copy) X(heif_context_set_max_decoding_threads) \
    X(heif_context_get_primary_image_handle) X(heif_context_get_encoder_for_format)                             \
    X(heif_context_encode_image) X(heif_context_encode_thumbnail) X(heif_context_write) X(heif_decode_image)    \
    X(heif_decoding_options_alloc) X(heif_decoding_options_free) X(heif_encoding_options_alloc)                 \
    X(heif_encoding_options_free) X(heif_encoder_release) X(heif_encoder_set_lossless)                          \
    X(heif_encoder_set_lossy_quality) X(heif_encoder_set_parameter_string) X(heif_have_encoder_for_format)      \
    X(heif_image_create) X(heif_image_release) X(heif_image_add_plane) X(heif_image_get_plane)                  \
    X(heif_image_get_plane_readonly) X(heif_image_get_width) X(heif_image_get_height)                           \
    X(heif_image_set_raw_color_profile)                                                                         \
    X(heif_image_handle_get_width) X(heif_image_handle_get_height) X(heif_image_handle_has_alpha_channel)       \
    X(heif_image_handle_is_premultiplied_alpha) X(heif_image_handle_get_number_of_thumbnails)                   \
    X(heif_image_handle_get_list_of_thumbnail_IDs) X(heif_image_handle_get_thumbnail)                           \
    X(heif_image_handle_release) X(heif_image_handle_get_color_profile_type)                                   \
    X(heif_image_handle_get_raw_color_profile_size) X(heif_image_handle_get_raw_color_profile)                 \
    X(heif_image_handle_get_nclx_color_profile) X(heif_nclx_color_profile_free)                                 \
    X(heif_image_handle_get_list_of_metadata_block_IDs) X(heif_image_handle_get_metadata_type)                   \
    X(heif_image_handle_get_metadata_content_type) X(heif_image_handle_get_metadata_size)                       \
    X(heif_image_handle_get_metadata) X(heif_context_add_exif_metadata) X(heif_context_add_XMP_metadata)      \
    X(heif_image_handle_get_luma_bits_per_pixel) X(heif_image_get_bits_per_pixel_range)

/* libheif's functions. */
typedef struct webimage_heif_api {
    WEBIMAGE_HEIF_FUNCTIONS(WEBIMAGE_LIBRARY_MEMBER)
} webimage_heif_api;

/* Loads libheif once per process and returns its table, or NULL with the reason in `message`. A
   library of another major version than the headers', or an older minor one, is refused. */
const webimage_heif_api *_Nullable webimage_heif_load(char *_Nonnull message, size_t message_size);

#endif
