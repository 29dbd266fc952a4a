/*
 * A TCP forwarder that holds every chunk it reads for a fixed delay before writing it on, each
 * way: a link with a round trip of twice the delay, for `npm run bench -- --pg-link` on kernels
 * without netem. One thread, epoll, one timerfd armed to the earliest chunk due (µs precision).
 * usage: delay-forwarder LISTEN_ADDR LISTEN_PORT TARGET_ADDR TARGET_PORT DELAY_US
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_PAIRS 1024
#define CHUNK 65536

struct chunk { struct chunk *next; uint64_t due; size_t len, off; char data[]; };
/* One direction: bytes read from `from`, written to `to` once due. */
struct way { int from, to; struct chunk *head, *tail; int eof; int shut; };
struct pair { int used; struct way w[2]; };

static struct pair pairs[MAX_PAIRS];
static uint64_t delay_ns;
static int ep, tfd;
/* One past the highest slot ever used: the loops stop there. */
static int top;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void nodelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static void close_pair(struct pair *p) {
  for (int i = 0; i < 2; i++) {
    struct chunk *c = p->w[i].head;
    while (c) { struct chunk *n = c->next; free(c); c = n; }
  }
  close(p->w[0].from);
  close(p->w[1].from);
  p->used = 0;
}

/* Arms the timer to the earliest chunk due anywhere (or disarms it). */
static void arm(void) {
  uint64_t earliest = 0;
  for (int i = 0; i < top; i++) {
    if (!pairs[i].used) continue;
    for (int k = 0; k < 2; k++) {
      struct chunk *c = pairs[i].w[k].head;
      if (c && (earliest == 0 || c->due < earliest)) earliest = c->due;
    }
  }
  struct itimerspec its = {0};
  if (earliest) {
    its.it_value.tv_sec = earliest / 1000000000ull;
    its.it_value.tv_nsec = earliest % 1000000000ull;
  }
  timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* Writes what is due on one way; 0 when the pair broke. */
static int flush(struct way *w, uint64_t now) {
  while (w->head && w->head->due <= now) {
    struct chunk *c = w->head;
    ssize_t n = write(w->to, c->data + c->off, c->len - c->off);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) { c->due = now + 50000; return 1; }
      return 0;
    }
    c->off += (size_t)n;
    if (c->off < c->len) continue;
    w->head = c->next;
    if (!w->head) w->tail = NULL;
    free(c);
  }
  if (w->eof && !w->head && !w->shut) { shutdown(w->to, SHUT_WR); w->shut = 1; }
  return 1;
}

static void readable(struct pair *p, int k) {
  struct way *w = &p->w[k];
  struct chunk *c = malloc(sizeof *c + CHUNK);
  if (!c) return;
  ssize_t n = read(w->from, c->data, CHUNK);
  if (n <= 0) {
    free(c);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    w->eof = 1;
    epoll_ctl(ep, EPOLL_CTL_DEL, w->from, NULL);
    if (p->w[0].eof && p->w[1].eof && !p->w[0].head && !p->w[1].head) { close_pair(p); return; }
    flush(w, now_ns());
    return;
  }
  c->next = NULL; c->len = (size_t)n; c->off = 0; c->due = now_ns() + delay_ns;
  if (w->tail) w->tail->next = c; else w->head = c;
  w->tail = c;
}

static int listen_on(const char *addr, int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
  inet_pton(AF_INET, addr, &sa.sin_addr);
  if (bind(fd, (struct sockaddr *)&sa, sizeof sa) || listen(fd, 128)) { perror("listen"); exit(1); }
  return fd;
}

int main(int argc, char **argv) {
  if (argc != 6) { fprintf(stderr, "usage: %s LISTEN_ADDR LISTEN_PORT TARGET_ADDR TARGET_PORT DELAY_US\n", argv[0]); return 2; }
  signal(SIGPIPE, SIG_IGN);
  delay_ns = strtoull(argv[5], NULL, 10) * 1000ull;
  struct sockaddr_in target = { .sin_family = AF_INET, .sin_port = htons(atoi(argv[4])) };
  inet_pton(AF_INET, argv[3], &target.sin_addr);
  int lfd = listen_on(argv[1], atoi(argv[2]));
  ep = epoll_create1(0);
  tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
  struct epoll_event ev = { .events = EPOLLIN, .data.u64 = UINT64_MAX };
  epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
  ev.data.u64 = UINT64_MAX - 1;
  epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev);
  struct epoll_event evs[64];
  for (;;) {
    int n = epoll_wait(ep, evs, 64, -1);
    for (int i = 0; i < n; i++) {
      uint64_t id = evs[i].data.u64;
      if (id == UINT64_MAX) {
        int c = accept4(lfd, NULL, NULL, SOCK_NONBLOCK);
        if (c < 0) continue;
        int u = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(u, (struct sockaddr *)&target, sizeof target)) { close(c); close(u); continue; }
        int s = 0;
        while (s < MAX_PAIRS && pairs[s].used) s++;
        if (s == MAX_PAIRS) { close(c); close(u); continue; }
        fcntl(u, F_SETFL, fcntl(u, F_GETFL) | O_NONBLOCK);
        nodelay(c); nodelay(u);
        if (s >= top) top = s + 1;
        pairs[s] = (struct pair){ .used = 1, .w = { { .from = c, .to = u }, { .from = u, .to = c } } };
        for (int k = 0; k < 2; k++) {
          struct epoll_event e = { .events = EPOLLIN, .data.u64 = (uint64_t)s * 2 + (uint64_t)k };
          epoll_ctl(ep, EPOLL_CTL_ADD, pairs[s].w[k].from, &e);
        }
      } else if (id == UINT64_MAX - 1) {
        uint64_t expirations;
        if (read(tfd, &expirations, sizeof expirations) < 0) {}
      } else {
        struct pair *p = &pairs[id / 2];
        if (p->used) readable(p, (int)(id % 2));
      }
    }
    uint64_t now = now_ns();
    for (int i = 0; i < top; i++) {
      if (!pairs[i].used) continue;
      if (!flush(&pairs[i].w[0], now) || !flush(&pairs[i].w[1], now)) { close_pair(&pairs[i]); continue; }
      if (pairs[i].w[0].shut && pairs[i].w[1].shut) close_pair(&pairs[i]);
    }
    arm();
  }
}
