// A Node addon that writes one buffer to many sockets in one call: writeAll(fds,
// bytes, results) does one write() per file descriptor, results[i] the bytes
// written or -errno. Loaded by bench/limits/writers.mjs ('native') into the
// node:http floor, it shows what Node would spend per stream if its own write
// path (JavaScript, the stream, libuv) cost nothing. A measuring tool: it
// writes behind libuv's back and is only safe where, as in the floor, nothing
// else ever waits in a socket's queue.
#include <errno.h>
#include <node_api.h>
#include <stdint.h>
#include <unistd.h>

static napi_value write_all(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_typedarray_type type;
  size_t fd_count, result_count, length, offset;
  void *fds, *results, *bytes;
  napi_value buffer;
  if (argc != 3 || napi_get_typedarray_info(env, argv[0], &type, &fd_count, &fds, &buffer, &offset) != napi_ok ||
      type != napi_int32_array || napi_get_buffer_info(env, argv[1], &bytes, &length) != napi_ok ||
      napi_get_typedarray_info(env, argv[2], &type, &result_count, &results, &buffer, &offset) != napi_ok ||
      type != napi_int32_array || result_count < fd_count) {
    napi_throw_type_error(env, NULL, "writeAll(fds: Int32Array, bytes: Buffer, results: Int32Array)");
    return NULL;
  }
  for (size_t i = 0; i < fd_count; i++) {
    ssize_t written = write(((int32_t *)fds)[i], bytes, length);
    ((int32_t *)results)[i] = written < 0 ? -errno : (int32_t)written;
  }
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "writeAll", NAPI_AUTO_LENGTH, write_all, NULL, &fn);
  napi_set_named_property(env, exports, "writeAll", fn);
  return exports;
}
