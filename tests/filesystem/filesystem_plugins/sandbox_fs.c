/* A filesystem plugin for tests (include/plugrt/filesystem_c_api.h), in C:
 * scheme "sandbox", whose paths sandbox://a/b live below the local directory
 * named by PLUGRT_TEST_SANDBOX_ROOT. It supplies only stat, reading, writing,
 * create_dir, delete_file and get_children, so renames, copies, recursive
 * directory creation, globbing and memory regions come from the runtime's
 * defaults.
 *
 * PLUGRT_TEST_SANDBOX_MODE, read at init, makes it misbehave in one way:
 *   abi_mismatch   the filesystem table claims ABI version 99
 *   small_tables   the filesystem table is cut after stat (an older header)
 *   large_tables   the filesystem table has two extra slots (a newer header)
 *   missing_stat   stat is NULL (the runtime's default serves it)
 *   missing_cleanup  the filesystem's cleanup is NULL (refused)
 *   no_allocator   plugin_memory_free is NULL
 *   scheme_ram     registers "ram" instead of "sandbox"
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugrt/filesystem_c_api.h"

static const char kPrefix[] = "sandbox://";

/* Every allocation crossing the boundary goes through these; the counter
 * lets a test see that the runtime frees what it was handed. */
static long g_live_allocations = 0;
/* In no_allocator mode the runtime refuses the plugin and cannot free what
 * it allocated: that comes from this static arena, so nothing leaks. */
static int g_use_arena = 0;
static _Alignas(16) char g_arena[4096];
static size_t g_arena_used = 0;
static void* Allocate(size_t size) {
  if (g_use_arena) {
    void* block = g_arena + g_arena_used;
    g_arena_used += (size + 15) / 16 * 16;
    if (g_arena_used > sizeof(g_arena)) abort();
    return block;
  }
  ++g_live_allocations;
  return calloc(1, size ? size : 1);
}
static void Free(void* ptr) {
  if (ptr != NULL) --g_live_allocations;
  free(ptr);
}
PLUGRT_FS_EXPORT long SandboxFs_LiveAllocations(void) { return g_live_allocations; }

static char* CopyString(const char* text) {
  char* copy = Allocate(strlen(text) + 1);
  strcpy(copy, text);
  return copy;
}

/* The local path of a sandbox:// URI; NULL (status set) otherwise. */
static char* LocalPath(const char* uri, PLUGRT_FsStatus* status) {
  const char* root = getenv("PLUGRT_TEST_SANDBOX_ROOT");
  if (root == NULL) {
    PLUGRT_FsStatus_Set(status, PLUGRT_FS_FAILED_PRECONDITION, "PLUGRT_TEST_SANDBOX_ROOT is not set");
    return NULL;
  }
  if (strncmp(uri, kPrefix, sizeof(kPrefix) - 1) != 0) {
    PLUGRT_FsStatus_Set(status, PLUGRT_FS_INVALID_ARGUMENT, "not a sandbox:// path");
    return NULL;
  }
  const char* rest = uri + sizeof(kPrefix) - 1;
  if (strstr(rest, "..") != NULL) {
    PLUGRT_FsStatus_Set(status, PLUGRT_FS_INVALID_ARGUMENT, "'..' leaves the sandbox");
    return NULL;
  }
  char* path = malloc(strlen(root) + strlen(rest) + 2);
  sprintf(path, "%s/%s", root, rest);
  return path;
}

static void SetErrno(PLUGRT_FsStatus* status, const char* what) {
  int code = PLUGRT_FS_INTERNAL;
  if (errno == ENOENT) code = PLUGRT_FS_NOT_FOUND;
  if (errno == EEXIST) code = PLUGRT_FS_ALREADY_EXISTS;
  if (errno == EISDIR || errno == ENOTDIR) code = PLUGRT_FS_FAILED_PRECONDITION;
  char message[256];
  snprintf(message, sizeof(message), "%s: %s", what, strerror(errno));
  PLUGRT_FsStatus_Set(status, code, message);
}

/* --- filesystem ---------------------------------------------------------- */

static void Init(PLUGRT_Filesystem* fs, PLUGRT_FsStatus* status) {
  (void)status;
  fs->plugin_filesystem = Allocate(1); /* nothing to keep; proves cleanup runs */
}
static void Cleanup(PLUGRT_Filesystem* fs) { Free(fs->plugin_filesystem); }

static void Stat(const PLUGRT_Filesystem* fs, const char* uri, PLUGRT_FileStatistics* stats,
                 PLUGRT_FsStatus* status) {
  (void)fs;
  char* path = LocalPath(uri, status);
  if (path == NULL) return;
  struct stat st;
  if (stat(path, &st) != 0) {
    SetErrno(status, "stat");
  } else {
    stats->is_directory = S_ISDIR(st.st_mode) ? 1 : 0;
    stats->length = stats->is_directory ? 0 : (int64_t)st.st_size;
    stats->mtime_nsec = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
  }
  free(path);
}

static void NewRandomAccessFile(const PLUGRT_Filesystem* fs, const char* uri,
                                PLUGRT_RandomAccessFile* file, PLUGRT_FsStatus* status) {
  (void)fs;
  char* path = LocalPath(uri, status);
  if (path == NULL) return;
  int fd = open(path, O_RDONLY);
  free(path);
  if (fd < 0) {
    SetErrno(status, "open");
    return;
  }
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    PLUGRT_FsStatus_Set(status, PLUGRT_FS_FAILED_PRECONDITION, "is a directory");
    return;
  }
  int* handle = Allocate(sizeof(int));
  *handle = fd;
  file->plugin_file = handle;
}

static void NewWritableFile(const PLUGRT_Filesystem* fs, const char* uri,
                            PLUGRT_WritableFile* file, PLUGRT_FsStatus* status) {
  (void)fs;
  char* path = LocalPath(uri, status);
  if (path == NULL) return;
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  free(path);
  if (fd < 0) {
    SetErrno(status, "open for writing");
    return;
  }
  int* handle = Allocate(sizeof(int));
  *handle = fd;
  file->plugin_file = handle;
}

static void CreateDir(const PLUGRT_Filesystem* fs, const char* uri, PLUGRT_FsStatus* status) {
  (void)fs;
  char* path = LocalPath(uri, status);
  if (path == NULL) return;
  if (mkdir(path, 0777) != 0) SetErrno(status, "mkdir");
  free(path);
}

static void DeleteFile(const PLUGRT_Filesystem* fs, const char* uri, PLUGRT_FsStatus* status) {
  (void)fs;
  char* path = LocalPath(uri, status);
  if (path == NULL) return;
  if (unlink(path) != 0) SetErrno(status, "unlink");
  free(path);
}

static int GetChildren(const PLUGRT_Filesystem* fs, const char* uri, char*** entries,
                       PLUGRT_FsStatus* status) {
  (void)fs;
  char* path = LocalPath(uri, status);
  if (path == NULL) return -1;
  DIR* dir = opendir(path);
  free(path);
  if (dir == NULL) {
    SetErrno(status, "opendir");
    return -1;
  }
  int count = 0, capacity = 8;
  char** names = Allocate(sizeof(char*) * (size_t)capacity);
  struct dirent* entry;
  while ((entry = readdir(dir)) != NULL) {
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    if (count == capacity) {
      char** bigger = Allocate(sizeof(char*) * (size_t)capacity * 2);
      memcpy(bigger, names, sizeof(char*) * (size_t)count);
      Free(names);
      names = bigger;
      capacity *= 2;
    }
    names[count++] = CopyString(entry->d_name);
  }
  closedir(dir);
  *entries = names;
  return count;
}

/* --- files --------------------------------------------------------------- */

static void RandomAccessCleanup(PLUGRT_RandomAccessFile* file) {
  close(*(int*)file->plugin_file);
  Free(file->plugin_file);
}

static int64_t Read(const PLUGRT_RandomAccessFile* file, uint64_t offset, size_t n, char* buffer,
                    PLUGRT_FsStatus* status) {
  size_t done = 0;
  while (done < n) {
    ssize_t got = pread(*(int*)file->plugin_file, buffer + done, n - done, (off_t)(offset + done));
    if (got < 0) {
      SetErrno(status, "pread");
      return -1;
    }
    if (got == 0) break;
    done += (size_t)got;
  }
  if (done < n) PLUGRT_FsStatus_Set(status, PLUGRT_FS_OUT_OF_RANGE, "end of file");
  return (int64_t)done;
}

static void WritableCleanup(PLUGRT_WritableFile* file) {
  int* fd = file->plugin_file;
  if (*fd >= 0) close(*fd);
  Free(fd);
}

static void Append(const PLUGRT_WritableFile* file, const char* buffer, size_t n,
                   PLUGRT_FsStatus* status) {
  while (n > 0) {
    ssize_t wrote = write(*(int*)file->plugin_file, buffer, n);
    if (wrote < 0) {
      SetErrno(status, "write");
      return;
    }
    buffer += wrote;
    n -= (size_t)wrote;
  }
}

static void Close(const PLUGRT_WritableFile* file, PLUGRT_FsStatus* status) {
  int* fd = file->plugin_file;
  if (close(*fd) != 0) SetErrno(status, "close");
  *fd = -1;
}

static void Unreachable(void) { abort(); }

PLUGRT_FS_EXPORT void PLUGRT_FilesystemPlugin_Init(PLUGRT_FilesystemPluginInfo* info) {
  const char* mode = getenv("PLUGRT_TEST_SANDBOX_MODE");
  if (mode == NULL) mode = "";
  g_use_arena = strcmp(mode, "no_allocator") == 0;
  info->plugin_memory_allocate = Allocate;
  info->plugin_memory_free = g_use_arena ? NULL : Free;
  info->num_schemes = 1;
  info->ops = Allocate(sizeof(PLUGRT_FilesystemPluginOps));
  PLUGRT_FilesystemPluginOps* ops = &info->ops[0];
  PLUGRT_FsSetVersionMetadata(ops);
  ops->scheme = CopyString(strcmp(mode, "scheme_ram") == 0 ? "ram" : "sandbox");

  /* A table two slots longer than this header's, as a newer plugin has. */
  const size_t extra = strcmp(mode, "large_tables") == 0 ? 2 * sizeof(void (*)(void)) : 0;
  PLUGRT_FilesystemOps* fs = Allocate(sizeof(PLUGRT_FilesystemOps) + extra);
  fs->init = Init;
  fs->cleanup = strcmp(mode, "missing_cleanup") == 0 ? NULL : Cleanup;
  fs->stat = strcmp(mode, "missing_stat") == 0 ? NULL : Stat;
  fs->new_random_access_file = NewRandomAccessFile;
  fs->new_writable_file = NewWritableFile;
  fs->create_dir = CreateDir;
  fs->delete_file = DeleteFile;
  fs->get_children = GetChildren;
  if (extra > 0) {
    void (**slots)(void) = (void (**)(void))(fs + 1);
    slots[0] = Unreachable;
    slots[1] = Unreachable;
    ops->filesystem_ops_size = sizeof(PLUGRT_FilesystemOps) + extra;
    ops->filesystem_ops_api = PLUGRT_FILESYSTEM_OPS_API + 1;
  }
  if (strcmp(mode, "small_tables") == 0) {
    /* As built against a header whose table ended after new_writable_file. */
    ops->filesystem_ops_size = offsetof(PLUGRT_FilesystemOps, new_appendable_file);
  }
  if (strcmp(mode, "abi_mismatch") == 0) ops->filesystem_ops_abi = 99;
  ops->filesystem_ops = fs;

  PLUGRT_RandomAccessFileOps* random_access = Allocate(sizeof(PLUGRT_RandomAccessFileOps));
  random_access->cleanup = RandomAccessCleanup;
  random_access->read = Read;
  ops->random_access_file_ops = random_access;

  PLUGRT_WritableFileOps* writable = Allocate(sizeof(PLUGRT_WritableFileOps));
  writable->cleanup = WritableCleanup;
  writable->append = Append;
  writable->close = Close;
  ops->writable_file_ops = writable;
  ops->read_only_memory_region_ops = NULL;
}
