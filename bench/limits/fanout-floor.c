// The least any server can spend on a change pushed to many streams: C, epoll,
// one write() of one shared buffer per stream, no allocation, nothing between
// the writes. It answers what the bench's fan-out sends (/healthz, .../adjust,
// .../events, .../state) as bench/lib/floor-server.mjs does, with a snapshot of
// the floor's default fields, so `bench/ab.mjs --b=c` sets Node's cost per
// stream beside it. A measuring tool, not the service: it trusts its requests.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_FD 65536
static int streams[MAX_FD];
static int stream_count = 0;
static unsigned char is_stream[MAX_FD];
static long seq = 1;
static long remaining = 600000;
static char snapshot[2048];
static int snapshot_len;
static char event[2200];
static int event_len;

static void make_snapshot(void) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  long long ms = (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
  snapshot_len = snprintf(snapshot, sizeof snapshot,
    "{\"seq\":%ld,\"serverNow\":%lld,\"running\":false,\"endAt\":null,\"remainingAtPause\":%ld,\"remaining\":%ld,"
    "\"zeroBehavior\":\"continue\",\"autoAdvance\":false,\"blackout\":false,\"onAir\":false,\"activeTimerId\":\"a1b2c3d4\","
    "\"activeLabel\":\"Timer 1\",\"activeSpeaker\":\"\",\"warnAt\":60000,\"duration\":600000,\"message\":null,"
    "\"timers\":[{\"id\":\"a1b2c3d4\",\"label\":\"Timer 1\",\"speaker\":\"\",\"duration\":600000,\"warnAt\":60000,"
    "\"appearance\":\"countdown\",\"tagId\":null,\"scheduledAt\":null}],\"settings\":{\"zeroBehavior\":\"continue\",\"autoAdvance\":false}}",
    seq, ms, remaining, remaining);
  event_len = snprintf(event, sizeof event, "id: %ld\nevent: state\ndata: %s\n\n", seq, snapshot);
}

static void put(int fd, const char *bytes, size_t len) {
  // A full socket buffer would drop bytes here; the bench's readers keep up.
  if (write(fd, bytes, len) < 0) return;
}

static void answer(int fd, int with_state) {
  char out[2600];
  char body[2100];
  int body_len = with_state ? snprintf(body, sizeof body, "{\"ok\":true,\"state\":%s}", snapshot) : snprintf(body, sizeof body, "{\"ok\":true}");
  int len = snprintf(out, sizeof out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nContent-Length: %d\r\n\r\n%s", body_len, body);
  put(fd, out, (size_t)len);
}

static int ends_with(const char *text, const char *tail) {
  size_t a = strlen(text), b = strlen(tail);
  return a >= b && strcmp(text + a - b, tail) == 0;
}

static void forget(int epoll, int fd) {
  epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
  if (is_stream[fd]) {
    is_stream[fd] = 0;
    for (int i = 0; i < stream_count; i++) {
      if (streams[i] == fd) {
        streams[i] = streams[--stream_count];
        break;
      }
    }
  }
  close(fd);
}

static void serve(int fd, char *request) {
  char *path = strchr(request, ' ');
  if (path == NULL) return;
  path += 1;
  char *end = strchr(path, ' ');
  if (end == NULL) return;
  *end = 0;
  char *query = strchr(path, '?');
  if (query != NULL) *query++ = 0;
  if (ends_with(path, "/events") && fd < MAX_FD) {
    static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-store\r\n\r\n";
    make_snapshot();
    put(fd, head, sizeof head - 1);
    put(fd, event, (size_t)event_len);
    is_stream[fd] = 1;
    streams[stream_count++] = fd;
  } else if (ends_with(path, "/adjust")) {
    if (query != NULL && strncmp(query, "ms=", 3) == 0) remaining += atol(query + 3);
    seq += 1;
    make_snapshot();
    for (int i = 0; i < stream_count; i++) put(streams[i], event, (size_t)event_len);
    answer(fd, 1);
  } else {
    make_snapshot();
    answer(fd, ends_with(path, "/state"));
  }
}

int main(void) {
  const char *port_text = getenv("PORT");
  int one = 1;
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons(port_text ? atoi(port_text) : 8080) };
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1024) != 0) {
    perror("listen");
    return 1;
  }
  int epoll = epoll_create1(0);
  struct epoll_event watch = { .events = EPOLLIN, .data.fd = listener };
  epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &watch);
  struct epoll_event ready[256];
  char request[8192];
  for (;;) {
    int count = epoll_wait(epoll, ready, 256, -1);
    for (int i = 0; i < count; i++) {
      int fd = ready[i].data.fd;
      if (fd == listener) {
        int client;
        while ((client = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          // As Node's HTTP server does for every connection.
          setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          struct epoll_event readable = { .events = EPOLLIN, .data.fd = client };
          epoll_ctl(epoll, EPOLL_CTL_ADD, client, &readable);
        }
        continue;
      }
      ssize_t got = read(fd, request, sizeof request - 1);
      if (got <= 0) {
        forget(epoll, fd);
        continue;
      }
      request[got] = 0;
      serve(fd, request);
    }
  }
}
