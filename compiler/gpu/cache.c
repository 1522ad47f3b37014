/* cache.c — the on-disk compile cache: $TRITIUM_CACHE_DIR, else
 * $XDG_CACHE_HOME/tritium, else ~/.cache/tritium: KEY.ptx per kernel (the
 * driver's compute cache keeps the SASS), written to a temporary name and
 * renamed, so concurrent processes never see half a file. */
#include "gpu_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int mkdir_p(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = 0;
        if (mkdir(p, 0755) && errno != EEXIST) { free(p); return -1; }
        *s = '/';
    }
    int rc = mkdir(p, 0755) && errno != EEXIST ? -1 : 0;
    free(p);
    return rc;
}

char *gpu_cache_dir(const gpu_options *o)
{
    const char *e = o ? o->set.cache_dir : tt_settings_env()->cache_dir;
    if (e && *e) return xstrdup(e);
    e = getenv("XDG_CACHE_HOME");
    if (e && *e) return xasprintf("%s/tritium", e);
    e = getenv("HOME");
    if (e && *e) return xasprintf("%s/.cache/tritium", e);
    return NULL;
}

bool gpu_cache_read(const char *dir, const char *key, const char *ext, void **data, size_t *len)
{
    if (!dir) return false;
    char *p = xasprintf("%s/%s%s", dir, key, ext);
    size_t n = 0;
    char *d = read_file(p, &n);
    free(p);
    if (!d) return false;
    *data = d;
    *len = n;
    return true;
}

void gpu_cache_write(const char *dir, const char *key, const char *ext, const void *data, size_t len)
{
    if (!dir || mkdir_p(dir)) return;
    char *tmp = xasprintf("%s/.%s%s.%ld.tmp", dir, key, ext, (long)getpid());
    char *p = xasprintf("%s/%s%s", dir, key, ext);
    FILE *f = fopen(tmp, "wb");
    if (f) {
        bool ok = fwrite(data, 1, len, f) == len;
        ok &= fclose(f) == 0;
        if (!ok || rename(tmp, p)) unlink(tmp);
    }
    free(tmp);
    free(p);
}
