/* plugrt filesystem plugin ABI: storage reached by URI scheme, provided by
 * shared libraries.
 *
 * plugrt reads and writes every file it handles (programs, .npy arrays,
 * serialized executables, the compilation cache) through a registry keyed by
 * URI scheme: "" for plain local paths, "file", "ram", "http", "https" built
 * in. A filesystem plugin is a shared library that adds schemes. It exports
 * PLUGRT_FilesystemPlugin_Init (PLUGRT_FILESYSTEM_PLUGIN_INIT_SYMBOL); the
 * runtime calls it once per load with a PLUGRT_FilesystemPluginInfo to fill:
 * one PLUGRT_FilesystemPluginOps per scheme, each with four operation tables
 * (filesystem, random-access file, writable file, read-only memory region),
 * and the plugin's allocate/free pair.
 *
 * The plugin links against nothing of plugrt and calls nothing back: it only
 * fills tables. Usable from C (C11) and C++.
 *
 * Objects. The four handle structs below are the runtime's; their void*
 * member is the plugin's. The runtime sets it to NULL before the call that
 * creates the object (init, new_*), never reads it, and calls the table's
 * cleanup exactly once when it is done with the object. The runtime never
 * passes a NULL handle, path or status.
 *
 * Memory. Every buffer that the plugin hands to the runtime (the ops array,
 * the scheme strings, the tables, directory listings, translated names) is
 * allocated with the plugin's plugin_memory_allocate and freed by the runtime
 * with the plugin's plugin_memory_free, so the two sides may use different
 * allocators. Buffers the runtime hands to the plugin (paths, read buffers,
 * data to append) stay the runtime's and are valid during the call only.
 *
 * Errors. Operations report through a PLUGRT_FsStatus the runtime owns and
 * initializes to OK; the plugin sets a code (the numbers of PJRT_Error_Code)
 * and a message (PLUGRT_FsStatus_Set). The runtime adds the scheme and the
 * plugin's path to the message.
 *
 * Versions. Each table has an ABI number, an API number and a size in bytes,
 * recorded per scheme (PLUGRT_FsSetVersionMetadata). The ABI number changes
 * when a layout or meaning changes incompatibly: a table whose ABI differs
 * from the runtime's is refused, naming the scheme, the table and both
 * numbers. The API number changes when operations are added at the end of a
 * table; sizes say which operations each side has. A plugin built against a
 * newer header (larger tables) is served with the operations this runtime
 * knows; one built against an older header (smaller tables) is served from
 * the operations it has, the rest taken as absent (NULL). A table smaller
 * than its required operations is refused.
 *
 * Required and optional operations. Required ones are marked REQUIRED; a
 * plugin missing one is refused by name. An operation marked DEFAULT may be
 * NULL: the runtime then supplies it from other operations (named there);
 * when those are missing too, or for an operation with neither mark, calling
 * it fails with UNIMPLEMENTED naming the operation and the scheme.
 *
 * Schemes. One scheme, one filesystem: a scheme already registered (built in
 * or by another plugin) is refused, naming both owners. Scheme names are
 * lowercase letters, digits, '+', '-', '.', starting with a letter.
 *
 * Paths. Every path argument is the full URI as the user wrote it
 * ("myfs://bucket/a/b"), NUL-terminated, unless the plugin supplies
 * translate_name, in which case it receives what translate_name returned.
 *
 * Concurrency. The runtime may call a filesystem's operations and a
 * random-access file's read from several threads at once; a writable file is
 * used by one thread at a time.
 */
#ifndef PLUGRT_FILESYSTEM_C_API_H_
#define PLUGRT_FILESYSTEM_C_API_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The init function every filesystem plugin exports, by this name. */
#define PLUGRT_FILESYSTEM_PLUGIN_INIT_SYMBOL "PLUGRT_FilesystemPlugin_Init"

#if defined(_WIN32)
#define PLUGRT_FS_EXPORT __declspec(dllexport)
#else
#define PLUGRT_FS_EXPORT __attribute__((visibility("default")))
#endif

/* --- status ---------------------------------------------------------------- */

/* Codes: the numbers of PJRT_Error_Code (absl's codes). */
enum {
  PLUGRT_FS_OK = 0,
  PLUGRT_FS_INVALID_ARGUMENT = 3,
  PLUGRT_FS_NOT_FOUND = 5,
  PLUGRT_FS_ALREADY_EXISTS = 6,
  PLUGRT_FS_PERMISSION_DENIED = 7,
  PLUGRT_FS_RESOURCE_EXHAUSTED = 8,
  PLUGRT_FS_FAILED_PRECONDITION = 9,
  PLUGRT_FS_OUT_OF_RANGE = 11,
  PLUGRT_FS_UNIMPLEMENTED = 12,
  PLUGRT_FS_INTERNAL = 13,
  PLUGRT_FS_UNAVAILABLE = 14,
  PLUGRT_FS_DATA_LOSS = 15,
};

#define PLUGRT_FS_STATUS_MESSAGE_CAPACITY 1024

/* The outcome of one operation; the runtime's, OK on entry. A fixed message
 * buffer, so that setting an error allocates nothing on either side. */
typedef struct PLUGRT_FsStatus {
  int code;
  char message[PLUGRT_FS_STATUS_MESSAGE_CAPACITY]; /* NUL-terminated */
} PLUGRT_FsStatus;

/* Sets `status` (the message is cut to fit). Compiled into the plugin. */
static inline void PLUGRT_FsStatus_Set(PLUGRT_FsStatus* status, int code,
                                       const char* message) {
  size_t n = message != NULL ? strlen(message) : 0;
  if (n >= PLUGRT_FS_STATUS_MESSAGE_CAPACITY) n = PLUGRT_FS_STATUS_MESSAGE_CAPACITY - 1;
  status->code = code;
  if (n > 0) memcpy(status->message, message, n);
  status->message[n] = '\0';
}

/* --- handles: the runtime's structs around the plugin's data ---------------- */

typedef struct PLUGRT_Filesystem {
  void* plugin_filesystem;
} PLUGRT_Filesystem;

typedef struct PLUGRT_RandomAccessFile {
  void* plugin_file;
} PLUGRT_RandomAccessFile;

typedef struct PLUGRT_WritableFile {
  void* plugin_file;
} PLUGRT_WritableFile;

typedef struct PLUGRT_ReadOnlyMemoryRegion {
  void* plugin_region;
} PLUGRT_ReadOnlyMemoryRegion;

/* What stat reports. */
typedef struct PLUGRT_FileStatistics {
  int64_t length;       /* bytes; 0 for directories */
  int64_t mtime_nsec;   /* last modification, nanoseconds since the epoch; 0 if unknown */
  int is_directory;     /* 0 or 1 */
} PLUGRT_FileStatistics;

/* --- operation tables --------------------------------------------------------
 * Operations are only ever appended to a table (see Versions above); the
 * required ones come first, so every table size that holds them is valid. */

typedef struct PLUGRT_RandomAccessFileOps {
  /* REQUIRED. Frees the plugin's data of `file`. */
  void (*cleanup)(PLUGRT_RandomAccessFile* file);
  /* REQUIRED. Reads up to `n` bytes at `offset` into `buffer` (the runtime's,
   * at least `n` bytes) and returns how many it read. Fewer than `n` because
   * the file ends: status OUT_OF_RANGE, return the count. Any other error:
   * return -1 and set the status. Thread-safe. */
  int64_t (*read)(const PLUGRT_RandomAccessFile* file, uint64_t offset, size_t n,
                  char* buffer, PLUGRT_FsStatus* status);
} PLUGRT_RandomAccessFileOps;

typedef struct PLUGRT_WritableFileOps {
  /* REQUIRED. Frees the plugin's data of `file` (after close, or instead of
   * it when the runtime abandons the file; must not close it). */
  void (*cleanup)(PLUGRT_WritableFile* file);
  /* REQUIRED. Appends `n` bytes; fewer written is RESOURCE_EXHAUSTED. */
  void (*append)(const PLUGRT_WritableFile* file, const char* buffer, size_t n,
                 PLUGRT_FsStatus* status);
  /* REQUIRED. Makes everything appended durable and visible to readers of
   * the path, and releases the file. Called at most once. */
  void (*close)(const PLUGRT_WritableFile* file, PLUGRT_FsStatus* status);
  /* The current write position. DEFAULT: the runtime counts the bytes it
   * appended through this object (for an appendable file, plus the size
   * stat reported when it was opened). */
  int64_t (*tell)(const PLUGRT_WritableFile* file, PLUGRT_FsStatus* status);
  /* Hands buffered data to the storage. DEFAULT: nothing. */
  void (*flush)(const PLUGRT_WritableFile* file, PLUGRT_FsStatus* status);
  /* Waits until the data is durable. DEFAULT: nothing. */
  void (*sync)(const PLUGRT_WritableFile* file, PLUGRT_FsStatus* status);
} PLUGRT_WritableFileOps;

typedef struct PLUGRT_ReadOnlyMemoryRegionOps {
  /* REQUIRED (all three). */
  void (*cleanup)(PLUGRT_ReadOnlyMemoryRegion* region);
  const void* (*data)(const PLUGRT_ReadOnlyMemoryRegion* region);
  uint64_t (*length)(const PLUGRT_ReadOnlyMemoryRegion* region);
} PLUGRT_ReadOnlyMemoryRegionOps;

typedef struct PLUGRT_FilesystemOps {
  /* REQUIRED. Sets up the filesystem of one scheme (once per registration). */
  void (*init)(PLUGRT_Filesystem* filesystem, PLUGRT_FsStatus* status);
  /* REQUIRED. Releases it (when the registry goes away). */
  void (*cleanup)(PLUGRT_Filesystem* filesystem);
  /* Statistics of `path`: NOT_FOUND when it does not exist. Every
   * existence, size and directory question goes through it. DEFAULT: a path
   * new_random_access_file opens is a file whose length is found by reading
   * it to the end (slow: a plugin should supply stat), one get_children
   * lists is a directory, anything else NOT_FOUND; no modification time. */
  void (*stat)(const PLUGRT_Filesystem* filesystem, const char* path,
               PLUGRT_FileStatistics* stats, PLUGRT_FsStatus* status);

  /* Opens `path` for reading. NOT_FOUND if absent, FAILED_PRECONDITION for a
   * directory. A plugin that sets it must supply the random-access table. */
  void (*new_random_access_file)(const PLUGRT_Filesystem* filesystem, const char* path,
                                 PLUGRT_RandomAccessFile* file, PLUGRT_FsStatus* status);
  /* Creates or truncates `path` for writing. NOT_FOUND if the parent is
   * missing. A plugin that sets it (or the next) must supply the writable
   * table. */
  void (*new_writable_file)(const PLUGRT_Filesystem* filesystem, const char* path,
                            PLUGRT_WritableFile* file, PLUGRT_FsStatus* status);
  /* Opens `path` to append, creating it empty if absent. */
  void (*new_appendable_file)(const PLUGRT_Filesystem* filesystem, const char* path,
                              PLUGRT_WritableFile* file, PLUGRT_FsStatus* status);
  /* The whole contents of `path` as memory. DEFAULT: read through
   * new_random_access_file into a runtime buffer. A plugin that sets it must
   * supply the memory-region table. */
  void (*new_read_only_memory_region_from_file)(const PLUGRT_Filesystem* filesystem,
                                                const char* path,
                                                PLUGRT_ReadOnlyMemoryRegion* region,
                                                PLUGRT_FsStatus* status);

  /* Creates one directory whose parent exists; ALREADY_EXISTS if it exists. */
  void (*create_dir)(const PLUGRT_Filesystem* filesystem, const char* path,
                     PLUGRT_FsStatus* status);
  /* Creates `path` and its missing ancestors; OK if it is a directory
   * already. DEFAULT: stat and create_dir, one level at a time. */
  void (*recursively_create_dir)(const PLUGRT_Filesystem* filesystem, const char* path,
                                 PLUGRT_FsStatus* status);
  /* Deletes a file; NOT_FOUND if absent, FAILED_PRECONDITION for a directory. */
  void (*delete_file)(const PLUGRT_Filesystem* filesystem, const char* path,
                      PLUGRT_FsStatus* status);
  /* Deletes an empty directory. */
  void (*delete_dir)(const PLUGRT_Filesystem* filesystem, const char* path,
                     PLUGRT_FsStatus* status);
  /* Renames a file within the scheme, replacing `dst`. Readers of `dst` see
   * the old or the new file, never a part (the compilation cache relies on
   * it). DEFAULT: copy_file to `dst`, then delete_file of `src` (which is not
   * atomic: a plugin whose storage can rename should supply it). */
  void (*rename_file)(const PLUGRT_Filesystem* filesystem, const char* src, const char* dst,
                      PLUGRT_FsStatus* status);
  /* Copies a file within the scheme, replacing `dst`. DEFAULT: read `src`
   * through new_random_access_file, write `dst` through new_writable_file. */
  void (*copy_file)(const PLUGRT_Filesystem* filesystem, const char* src, const char* dst,
                    PLUGRT_FsStatus* status);
  /* The names (not paths) of the entries of directory `path`, without "."
   * and "..": `*entries` is an array of `return value` strings, array and
   * strings from plugin_memory_allocate, owned by the runtime afterwards.
   * On error: -1, status set, nothing allocated. */
  int (*get_children)(const PLUGRT_Filesystem* filesystem, const char* path, char*** entries,
                      PLUGRT_FsStatus* status);
  /* The paths matching `pattern` ('*' and '?' within one path component,
   * '[...]' character classes, '\\' escapes), allocated as for get_children.
   * DEFAULT: walk the directories below the pattern's fixed prefix with
   * get_children and stat, matching component by component. */
  int (*get_matching_paths)(const PLUGRT_Filesystem* filesystem, const char* pattern,
                            char*** entries, PLUGRT_FsStatus* status);
  /* Maps a URI to the path the other operations take, from
   * plugin_memory_allocate (never NULL). DEFAULT: the URI unchanged. */
  char* (*translate_name)(const PLUGRT_Filesystem* filesystem, const char* uri);
} PLUGRT_FilesystemOps;

/* --- versions ---------------------------------------------------------------- */

#define PLUGRT_FILESYSTEM_OPS_ABI 1
#define PLUGRT_FILESYSTEM_OPS_API 1
#define PLUGRT_FILESYSTEM_OPS_SIZE sizeof(PLUGRT_FilesystemOps)
#define PLUGRT_RANDOM_ACCESS_FILE_OPS_ABI 1
#define PLUGRT_RANDOM_ACCESS_FILE_OPS_API 1
#define PLUGRT_RANDOM_ACCESS_FILE_OPS_SIZE sizeof(PLUGRT_RandomAccessFileOps)
#define PLUGRT_WRITABLE_FILE_OPS_ABI 1
#define PLUGRT_WRITABLE_FILE_OPS_API 1
#define PLUGRT_WRITABLE_FILE_OPS_SIZE sizeof(PLUGRT_WritableFileOps)
#define PLUGRT_READ_ONLY_MEMORY_REGION_OPS_ABI 1
#define PLUGRT_READ_ONLY_MEMORY_REGION_OPS_API 1
#define PLUGRT_READ_ONLY_MEMORY_REGION_OPS_SIZE sizeof(PLUGRT_ReadOnlyMemoryRegionOps)

/* --- registration ------------------------------------------------------------ */

/* One scheme and its tables; every pointer from plugin_memory_allocate. A
 * table the scheme does not support is NULL (its size then does not
 * matter). The layout of this struct never changes. */
typedef struct PLUGRT_FilesystemPluginOps {
  char* scheme;
  int filesystem_ops_abi;
  int filesystem_ops_api;
  size_t filesystem_ops_size;
  PLUGRT_FilesystemOps* filesystem_ops;
  int random_access_file_ops_abi;
  int random_access_file_ops_api;
  size_t random_access_file_ops_size;
  PLUGRT_RandomAccessFileOps* random_access_file_ops;
  int writable_file_ops_abi;
  int writable_file_ops_api;
  size_t writable_file_ops_size;
  PLUGRT_WritableFileOps* writable_file_ops;
  int read_only_memory_region_ops_abi;
  int read_only_memory_region_ops_api;
  size_t read_only_memory_region_ops_size;
  PLUGRT_ReadOnlyMemoryRegionOps* read_only_memory_region_ops;
} PLUGRT_FilesystemPluginOps;

/* What the init function fills. The runtime sets struct_size (so a plugin
 * can tell which fields exist) and zeroes the rest; the plugin sets every
 * other field. `ops` holds `num_schemes` entries. The runtime copies what it
 * keeps and frees `ops`, the scheme strings and the tables with
 * plugin_memory_free once init returns. */
typedef struct PLUGRT_FilesystemPluginInfo {
  size_t struct_size;
  size_t num_schemes;
  PLUGRT_FilesystemPluginOps* ops;
  void* (*plugin_memory_allocate)(size_t size);
  void (*plugin_memory_free)(void* ptr);
} PLUGRT_FilesystemPluginInfo;

/* Records this header's versions and table sizes in `ops`. Compiled into the
 * plugin, so the numbers are those it was built against. */
static inline void PLUGRT_FsSetVersionMetadata(PLUGRT_FilesystemPluginOps* ops) {
  ops->filesystem_ops_abi = PLUGRT_FILESYSTEM_OPS_ABI;
  ops->filesystem_ops_api = PLUGRT_FILESYSTEM_OPS_API;
  ops->filesystem_ops_size = PLUGRT_FILESYSTEM_OPS_SIZE;
  ops->random_access_file_ops_abi = PLUGRT_RANDOM_ACCESS_FILE_OPS_ABI;
  ops->random_access_file_ops_api = PLUGRT_RANDOM_ACCESS_FILE_OPS_API;
  ops->random_access_file_ops_size = PLUGRT_RANDOM_ACCESS_FILE_OPS_SIZE;
  ops->writable_file_ops_abi = PLUGRT_WRITABLE_FILE_OPS_ABI;
  ops->writable_file_ops_api = PLUGRT_WRITABLE_FILE_OPS_API;
  ops->writable_file_ops_size = PLUGRT_WRITABLE_FILE_OPS_SIZE;
  ops->read_only_memory_region_ops_abi = PLUGRT_READ_ONLY_MEMORY_REGION_OPS_ABI;
  ops->read_only_memory_region_ops_api = PLUGRT_READ_ONLY_MEMORY_REGION_OPS_API;
  ops->read_only_memory_region_ops_size = PLUGRT_READ_ONLY_MEMORY_REGION_OPS_SIZE;
}

typedef void (*PLUGRT_FilesystemPluginInitFn)(PLUGRT_FilesystemPluginInfo* info);

#ifdef __cplusplus
}
#endif

#endif /* PLUGRT_FILESYSTEM_C_API_H_ */
