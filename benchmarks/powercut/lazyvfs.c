/* A file layer that forgets what was not synced: SQLite's "unix" VFS behind a page cache that
 * a power cut can empty (benchmarks/power_cut.py builds and loads it into a forked child).
 *
 * Every write and truncate to the main database, its WAL or its rollback journal stays in this
 * process's memory (reads see it, as they see the kernel's page cache) until xSync on that file
 * writes it through. At the chosen moment (the N-th write, truncate or sync, counted over all
 * files) the power fails: each pending write's 512-byte sectors reach the disk or not, one coin
 * each (probability p), with the sector's content as of that write (writeback in any order, at
 * any time: torn pages and stale versions included; bytes that were never written never
 * change, which is SQLite's "powersafe overwrite"). A truncate lands with probability p.
 *
 * Directory entries: a file's creation is durable once the file itself is synced (as on ext4)
 * or its directory is; a deletion only once the directory is synced (the unix VFS syncs the
 * directory on the first sync of a WAL or rollback journal it created, or when SQLite asks
 * xDelete to). Until then, at the cut, a created file vanishes and a deleted file (kept aside
 * under another name meanwhile) comes back, each with probability 1 - p. Then the process ends
 * at once (_exit).
 *
 * The real fsync is never called: the machine keeps running, so the real page cache is the
 * "disk" here. Temporary files pass straight through. xFetch (memory-mapped reads) is not
 * offered, so every read goes through the overlay.
 *
 * Loaded with ctypes into a process whose sqlite3 module already holds libsqlite3 (the library
 * is found with dlopen(RTLD_NOLOAD), so this is the same SQLite the module uses).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SECTOR 512
#define CUT_EXIT 86

typedef struct Op {
    sqlite3_int64 off; /* a truncate: the new size */
    int len;           /* -1: a truncate */
    unsigned char *data;
    struct Op *next;
} Op;

typedef struct Node { /* one file by path: its pending (unsynced) operations, in order */
    char *path;
    int created; /* created here and never synced: its directory entry is not durable */
    int main_db;
    Op *head, *tail;
    struct Node *next;
} Node;

typedef struct Gone { /* a deletion whose directory was not synced since */
    char *path, *aside;
    struct Gone *next;
} Gone;

typedef struct LazyFile {
    sqlite3_file base;
    Node *node;  /* NULL: passed straight through */
    int dirsync; /* the unix VFS would sync the directory on this handle's first sync */
    sqlite3_file *real;
} LazyFile;

static sqlite3_vfs *orig;
static sqlite3_vfs lazy;
static Node *nodes;
static Gone *gone;
static unsigned long long deletions;
static unsigned long long ops, cut_at, opened;
static int report_fd = -1;
static int database_only;
static double keep_p;
static uint64_t rng_state;

static uint64_t next_random(void) {
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 2685821657736338717ULL;
}

static int coin(double p) { return (double)(next_random() >> 11) / 9007199254740992.0 < p; }

/* ------------------------------------------------------------------------- the power cut */

typedef struct Buf {
    unsigned char *b;
    sqlite3_int64 size, cap;
} Buf;

static void reserve(Buf *buf, sqlite3_int64 need) {
    if (need <= buf->cap) return;
    sqlite3_int64 cap = buf->cap ? buf->cap : 65536;
    while (cap < need) cap *= 2;
    buf->b = realloc(buf->b, (size_t)cap);
    if (!buf->b) _exit(CUT_EXIT + 1);
    memset(buf->b + buf->cap, 0, (size_t)(cap - buf->cap));
    buf->cap = cap;
}

static void resize(Buf *buf, sqlite3_int64 size) {
    reserve(buf, size);
    if (size < buf->size) memset(buf->b + size, 0, (size_t)(buf->size - size));
    buf->size = size;
}

static void cut_file(Node *n) {
    if (n->created && !coin(keep_p)) {
        unlink(n->path);
        return;
    }
    if (!n->head) return;
    int fd = open(n->path, O_RDWR | O_CREAT, 0644);
    if (fd < 0) _exit(CUT_EXIT + 1);
    struct stat st;
    if (fstat(fd, &st) != 0) _exit(CUT_EXIT + 1);
    Buf vol = {0}, disk = {0};
    resize(&vol, st.st_size);
    for (sqlite3_int64 done = 0; done < st.st_size;) {
        ssize_t got = pread(fd, vol.b + done, (size_t)(st.st_size - done), done);
        if (got <= 0) _exit(CUT_EXIT + 1);
        done += got;
    }
    resize(&disk, vol.size);
    if (vol.size) memcpy(disk.b, vol.b, (size_t)vol.size);
    for (Op *op = n->head; op; op = op->next) {
        if (op->len < 0) {
            resize(&vol, op->off);
            if (coin(keep_p)) resize(&disk, op->off);
            continue;
        }
        sqlite3_int64 end = op->off + op->len;
        if (end > vol.size) resize(&vol, end);
        memcpy(vol.b + op->off, op->data, (size_t)op->len);
        for (sqlite3_int64 lo = op->off / SECTOR * SECTOR; lo < end; lo += SECTOR) {
            if (!coin(keep_p)) continue;
            sqlite3_int64 hi = lo + SECTOR < vol.size ? lo + SECTOR : vol.size;
            if (hi > disk.size) resize(&disk, hi);
            memcpy(disk.b + lo, vol.b + lo, (size_t)(hi - lo));
        }
    }
    if (ftruncate(fd, disk.size) != 0) _exit(CUT_EXIT + 1);
    for (sqlite3_int64 done = 0; done < disk.size;) {
        ssize_t put = pwrite(fd, disk.b + done, (size_t)(disk.size - done), done);
        if (put <= 0) _exit(CUT_EXIT + 1);
        done += put;
    }
    close(fd);
}

/* Fail the power now: what reached the disk stays, the rest is gone with the process. Each file
 * with unsynced writes is first named on the report descriptor: "pending OPS CREATED PATH". */
void lazyvfs_cut(void) {
    for (Node *n = nodes; n; n = n->next) {
        int pending = 0;
        for (Op *op = n->head; op; op = op->next) pending++;
        if (report_fd >= 0 && (pending || n->created))
            dprintf(report_fd, "pending %d %d %s\n", pending, n->created, n->path);
    }
    for (Gone *g = gone; g; g = g->next)
        if (report_fd >= 0) dprintf(report_fd, "deleted %s\n", g->path);
    for (Node *n = nodes; n; n = n->next) cut_file(n);
    for (Gone *g = gone; g; g = g->next) {
        if (!coin(keep_p) && access(g->path, F_OK) != 0) rename(g->aside, g->path);
        else unlink(g->aside);
    }
    _exit(CUT_EXIT);
}

static void tick(Node *n) {
    if (database_only && !n->main_db) return;
    if (++ops == cut_at) lazyvfs_cut();
}

/* ------------------------------------------------------------------------- the file layer */

static void push(Node *n, sqlite3_int64 off, int len, const void *data) {
    Op *op = calloc(1, sizeof *op);
    if (!op) _exit(CUT_EXIT + 1);
    op->off = off;
    op->len = len;
    if (len > 0) {
        op->data = malloc((size_t)len);
        if (!op->data) _exit(CUT_EXIT + 1);
        memcpy(op->data, data, (size_t)len);
    }
    if (n->tail) n->tail->next = op; else n->head = op;
    n->tail = op;
}

static sqlite3_int64 logical_size(LazyFile *p, int *rc) {
    sqlite3_int64 size = 0;
    *rc = p->real->pMethods->xFileSize(p->real, &size);
    for (Op *op = p->node->head; op; op = op->next) {
        if (op->len < 0) size = op->off;
        else if (op->off + op->len > size) size = op->off + op->len;
    }
    return size;
}

static int xClose(sqlite3_file *f) {
    LazyFile *p = (LazyFile *)f;
    return p->real->pMethods->xClose(p->real); /* pending writes stay in the "page cache" */
}

static int xRead(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off) {
    LazyFile *p = (LazyFile *)f;
    int rc = p->real->pMethods->xRead(p->real, buf, amt, off);
    if (!p->node || !p->node->head) return rc;
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) return rc;
    unsigned char *out = buf;
    sqlite3_int64 end = off + amt;
    for (Op *op = p->node->head; op; op = op->next) {
        if (op->len < 0) {
            if (op->off < end) {
                sqlite3_int64 from = op->off > off ? op->off : off;
                memset(out + (from - off), 0, (size_t)(end - from));
            }
            continue;
        }
        sqlite3_int64 lo = op->off > off ? op->off : off;
        sqlite3_int64 hi = op->off + op->len < end ? op->off + op->len : end;
        if (lo < hi) memcpy(out + (lo - off), op->data + (lo - op->off), (size_t)(hi - lo));
    }
    sqlite3_int64 size = logical_size(p, &rc);
    if (rc != SQLITE_OK) return rc;
    if (end <= size) return SQLITE_OK;
    sqlite3_int64 from = size > off ? size : off;
    memset(out + (from - off), 0, (size_t)(end - from));
    return SQLITE_IOERR_SHORT_READ;
}

static int xWrite(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off) {
    LazyFile *p = (LazyFile *)f;
    if (!p->node) return p->real->pMethods->xWrite(p->real, buf, amt, off);
    push(p->node, off, amt, buf);
    tick(p->node);
    return SQLITE_OK;
}

static int xTruncate(sqlite3_file *f, sqlite3_int64 size) {
    LazyFile *p = (LazyFile *)f;
    if (!p->node) return p->real->pMethods->xTruncate(p->real, size);
    push(p->node, size, -1, NULL);
    tick(p->node);
    return SQLITE_OK;
}

/* Every creation and deletion so far becomes durable (one directory holds all the files). */
static void sync_directory(void) {
    for (Node *n = nodes; n; n = n->next) n->created = 0;
    while (gone) {
        Gone *g = gone;
        gone = g->next;
        unlink(g->aside);
        free(g->path);
        free(g->aside);
        free(g);
    }
}

static int xSync(sqlite3_file *f, int flags) {
    LazyFile *p = (LazyFile *)f;
    if (!p->node) return p->real->pMethods->xSync(p->real, flags);
    tick(p->node);
    Node *n = p->node;
    int rc = SQLITE_OK;
    while (n->head) {
        Op *op = n->head;
        if (rc == SQLITE_OK) {
            rc = op->len < 0 ? p->real->pMethods->xTruncate(p->real, op->off)
                             : p->real->pMethods->xWrite(p->real, op->data, op->len, op->off);
        }
        n->head = op->next;
        free(op->data);
        free(op);
    }
    n->tail = NULL;
    n->created = 0;
    if (p->dirsync) {
        p->dirsync = 0;
        sync_directory();
    }
    return rc;
}

static int xFileSize(sqlite3_file *f, sqlite3_int64 *size) {
    LazyFile *p = (LazyFile *)f;
    if (!p->node) return p->real->pMethods->xFileSize(p->real, size);
    int rc;
    *size = logical_size(p, &rc);
    return rc;
}

static int xLock(sqlite3_file *f, int l) {
    LazyFile *p = (LazyFile *)f;
    return p->real->pMethods->xLock(p->real, l);
}

static int xUnlock(sqlite3_file *f, int l) {
    LazyFile *p = (LazyFile *)f;
    return p->real->pMethods->xUnlock(p->real, l);
}

static int xCheckReservedLock(sqlite3_file *f, int *out) {
    LazyFile *p = (LazyFile *)f;
    return p->real->pMethods->xCheckReservedLock(p->real, out);
}

static int xFileControl(sqlite3_file *f, int op, void *arg) {
    LazyFile *p = (LazyFile *)f;
    if (p->node && op == SQLITE_FCNTL_SIZE_HINT) return SQLITE_OK; /* it may write directly */
    return p->real->pMethods->xFileControl(p->real, op, arg);
}

static int xSectorSize(sqlite3_file *f) {
    LazyFile *p = (LazyFile *)f;
    return p->real->pMethods->xSectorSize(p->real);
}

static int xDeviceCharacteristics(sqlite3_file *f) {
    LazyFile *p = (LazyFile *)f;
    return p->real->pMethods->xDeviceCharacteristics(p->real);
}

static int xShmMap(sqlite3_file *f, int page, int size, int extend, void volatile **out) {
    LazyFile *p = (LazyFile *)f;
    return p->real->pMethods->xShmMap(p->real, page, size, extend, out);
}

static int xShmLock(sqlite3_file *f, int offset, int n, int flags) {
    LazyFile *p = (LazyFile *)f;
    return p->real->pMethods->xShmLock(p->real, offset, n, flags);
}

static void xShmBarrier(sqlite3_file *f) {
    LazyFile *p = (LazyFile *)f;
    p->real->pMethods->xShmBarrier(p->real);
}

static int xShmUnmap(sqlite3_file *f, int del) {
    LazyFile *p = (LazyFile *)f;
    return p->real->pMethods->xShmUnmap(p->real, del);
}

static const sqlite3_io_methods lazy_io = {
    2, xClose, xRead, xWrite, xTruncate, xSync, xFileSize, xLock, xUnlock,
    xCheckReservedLock, xFileControl, xSectorSize, xDeviceCharacteristics,
    xShmMap, xShmLock, xShmBarrier, xShmUnmap, NULL, NULL,
};

static Node *node_for(const char *path) {
    for (Node *n = nodes; n; n = n->next)
        if (strcmp(n->path, path) == 0) return n;
    Node *n = calloc(1, sizeof *n);
    if (!n || !(n->path = strdup(path))) _exit(CUT_EXIT + 1);
    n->next = nodes;
    nodes = n;
    return n;
}

static int vOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out) {
    (void)vfs;
    LazyFile *p = (LazyFile *)f;
    p->real = (sqlite3_file *)&p[1];
    p->node = NULL;
    int kept = SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL;
    int on_disk = name && access(name, F_OK) == 0;
    int rc = orig->xOpen(orig, name, p->real, flags, out);
    p->base.pMethods = p->real->pMethods ? &lazy_io : NULL;
    if (rc != SQLITE_OK || !name || !(flags & kept)) return rc;
    p->node = node_for(name);
    if (!on_disk && !p->node->head) p->node->created = 1;
    p->node->main_db = (flags & SQLITE_OPEN_MAIN_DB) != 0;
    p->dirsync = (flags & SQLITE_OPEN_CREATE) && (flags & SQLITE_OPEN_MAIN_DB) == 0;
    opened++;
    return rc;
}

static int vDelete(sqlite3_vfs *vfs, const char *name, int dirsync) {
    (void)vfs;
    Node *node = NULL;
    for (Node *n = nodes; n; n = n->next) {
        if (strcmp(n->path, name) != 0) continue;
        node = n;
        while (n->head) {
            Op *op = n->head;
            n->head = op->next;
            free(op->data);
            free(op);
        }
        n->tail = NULL;
    }
    if (!node || dirsync) {
        int rc = orig->xDelete(orig, name, dirsync);
        if (rc == SQLITE_OK && dirsync) sync_directory();
        return rc;
    }
    int was_created = node->created;
    node->created = 0;
    if (was_created) return orig->xDelete(orig, name, 0); /* never durable: nothing to undo */
    Gone *g = calloc(1, sizeof *g);
    size_t len = strlen(name) + 48;
    if (!g || !(g->path = strdup(name)) || !(g->aside = malloc(len))) _exit(CUT_EXIT + 1);
    snprintf(g->aside, len, "%s.powercut-deleted-%llu", name, ++deletions);
    if (rename(name, g->aside) != 0) {
        free(g->path);
        free(g->aside);
        free(g);
        return orig->xDelete(orig, name, 0); /* its error (no such file...) */
    }
    g->next = gone;
    gone = g;
    return SQLITE_OK;
}

static int vAccess(sqlite3_vfs *v, const char *name, int flags, int *out) {
    (void)v;
    return orig->xAccess(orig, name, flags, out);
}
static int vFullPathname(sqlite3_vfs *v, const char *name, int n, char *out) {
    (void)v;
    return orig->xFullPathname(orig, name, n, out);
}
static void *vDlOpen(sqlite3_vfs *v, const char *name) {
    (void)v;
    return orig->xDlOpen(orig, name);
}
static void vDlError(sqlite3_vfs *v, int n, char *out) {
    (void)v;
    orig->xDlError(orig, n, out);
}
static void (*vDlSym(sqlite3_vfs *v, void *h, const char *sym))(void) {
    (void)v;
    return orig->xDlSym(orig, h, sym);
}
static void vDlClose(sqlite3_vfs *v, void *h) {
    (void)v;
    orig->xDlClose(orig, h);
}
static int vRandomness(sqlite3_vfs *v, int n, char *out) {
    (void)v;
    return orig->xRandomness(orig, n, out);
}
static int vSleep(sqlite3_vfs *v, int us) {
    (void)v;
    return orig->xSleep(orig, us);
}
static int vCurrentTime(sqlite3_vfs *v, double *out) {
    (void)v;
    return orig->xCurrentTime(orig, out);
}
static int vGetLastError(sqlite3_vfs *v, int n, char *out) {
    (void)v;
    return orig->xGetLastError(orig, n, out);
}
static int vCurrentTimeInt64(sqlite3_vfs *v, sqlite3_int64 *out) {
    (void)v;
    return orig->xCurrentTimeInt64(orig, out);
}

/* Register the layer as SQLite's default VFS. ``library``: the loaded object that holds the
 * sqlite3 module's SQLite; the power fails at the ``cut``-th write, truncate or sync (0:
 * only when lazyvfs_cut is called), counting only the main database file's when ``database``
 * is set (to land in checkpoints); ``p``: the chance that each pending sector (or truncate)
 * reaches the disk; ``report``: a descriptor told what was pending at the cut (-1: none).
 * Returns an SQLite result code. */
int lazyvfs_install(const char *library, unsigned long long cut, double p,
                    unsigned long long seed, int report, int database) {
    void *lib = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
    if (!lib) return SQLITE_NOTFOUND;
    sqlite3_vfs *(*find)(const char *) = (sqlite3_vfs * (*)(const char *)) dlsym(lib, "sqlite3_vfs_find");
    int (*reg)(sqlite3_vfs *, int) = (int (*)(sqlite3_vfs *, int))dlsym(lib, "sqlite3_vfs_register");
    if (!find || !reg) return SQLITE_NOTFOUND;
    orig = find("unix");
    if (!orig || orig->iVersion < 2) return SQLITE_NOTFOUND;
    cut_at = cut;
    keep_p = p;
    report_fd = report;
    database_only = database;
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
    lazy.iVersion = 2;
    lazy.szOsFile = (int)sizeof(LazyFile) + orig->szOsFile;
    lazy.mxPathname = orig->mxPathname;
    lazy.zName = "lazy";
    lazy.xOpen = vOpen;
    lazy.xDelete = vDelete;
    lazy.xAccess = vAccess;
    lazy.xFullPathname = vFullPathname;
    lazy.xDlOpen = vDlOpen;
    lazy.xDlError = vDlError;
    lazy.xDlSym = vDlSym;
    lazy.xDlClose = vDlClose;
    lazy.xRandomness = vRandomness;
    lazy.xSleep = vSleep;
    lazy.xCurrentTime = vCurrentTime;
    lazy.xGetLastError = vGetLastError;
    lazy.xCurrentTimeInt64 = vCurrentTimeInt64;
    return reg(&lazy, 1);
}

/* Writes, truncates and syncs counted so far; files opened through the layer so far. */
unsigned long long lazyvfs_ops(void) { return ops; }
unsigned long long lazyvfs_opened(void) { return opened; }
