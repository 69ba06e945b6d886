/*
 * The glibc symbols that Debian's libstdc++.so.6 and libgcc_s.so.1 reference, for a root
 * filesystem that has musl and no glibc: Debian ships no musl build of either library, and the
 * musl build of Bun links both. Built with musl-gcc as `ld-linux-x86-64.so.2`, the name
 * libstdc++ asks for (musl maps libc.so.6 and libm.so.6 to itself). On Alpine, `apk add
 * libstdc++ libgcc` gives the real musl builds and none of this is needed.
 */
#define _GNU_SOURCE
#include <link.h>
#include <locale.h>
#include <stdint.h>
#include <sys/random.h>
#include <time.h>

char __libc_single_threaded = 0;

/* libgcc's CPU feature table: left zero, so every feature reads as absent */
struct { unsigned int vendor, type, subtype, features[1]; } __cpu_model;
int __cpu_indicator_init(void) { return 0; }

uint32_t arc4random(void) {
  uint32_t r = 0;
  getrandom(&r, sizeof r, 0);
  return r;
}

size_t __strftime_l(char *s, size_t n, const char *f, const struct tm *t, locale_t l) {
  return strftime_l(s, n, f, t, l);
}

/* destructors of thread_local objects are not run at thread exit: they are leaked */
int __cxa_thread_atexit_impl(void (*dtor)(void *), void *obj, void *dso) {
  (void)dtor; (void)obj; (void)dso;
  return 0;
}

/* glibc 2.35's struct dl_find_object, which libgcc's unwinder fills to find a frame's unwind table */
struct dl_find_object {
  unsigned long long dlfo_flags;
  void *dlfo_map_start, *dlfo_map_end;
  void *dlfo_link_map;
  void *dlfo_eh_frame;
  unsigned long long reserved[7];
};

struct search { uintptr_t pc; struct dl_find_object *out; };

static int find_in(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct search *s = data;
  uintptr_t lo = UINTPTR_MAX, hi = 0, eh = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *p = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + p->p_vaddr;
    if (p->p_type == PT_LOAD) {
      if (start < lo) lo = start;
      if (start + p->p_memsz > hi) hi = start + p->p_memsz;
    } else if (p->p_type == PT_GNU_EH_FRAME) {
      eh = start;
    }
  }
  if (s->pc < lo || s->pc >= hi) return 0;
  s->out->dlfo_flags = 0;
  s->out->dlfo_map_start = (void *)lo;
  s->out->dlfo_map_end = (void *)hi;
  s->out->dlfo_link_map = 0;
  s->out->dlfo_eh_frame = (void *)eh;
  return 1;
}

int _dl_find_object(void *pc, struct dl_find_object *out) {
  struct search s = { (uintptr_t)pc, out };
  return dl_iterate_phdr(find_in, &s) ? 0 : -1;
}
