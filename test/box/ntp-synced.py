# Clears the kernel's "clock unsynchronised" flag (STA_UNSYNC) through adjtimex(2), as an
# NTP client does once it has a server: what timedatectl reports as NTPSynchronized=yes.
import ctypes
import ctypes.util


class Timex(ctypes.Structure):
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long), ("maxerror", ctypes.c_long),
                ("esterror", ctypes.c_long), ("status", ctypes.c_int), ("constant", ctypes.c_long), ("precision", ctypes.c_long),
                ("tolerance", ctypes.c_long), ("time_sec", ctypes.c_long), ("time_usec", ctypes.c_long), ("tick", ctypes.c_long),
                ("ppsfreq", ctypes.c_long), ("jitter", ctypes.c_long), ("shift", ctypes.c_int), ("stabil", ctypes.c_long),
                ("jitcnt", ctypes.c_long), ("calcnt", ctypes.c_long), ("errcnt", ctypes.c_long), ("stbcnt", ctypes.c_long),
                ("tai", ctypes.c_int), ("reserved", ctypes.c_int * 11)]


ADJ_MAXERROR, ADJ_ESTERROR, ADJ_STATUS = 0x0004, 0x0008, 0x0010
libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
timex = Timex(modes=ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR, status=0, maxerror=0, esterror=0)
state = libc.adjtimex(ctypes.byref(timex))
if state < 0:
    raise SystemExit("adjtimex failed: errno %d" % ctypes.get_errno())
print("synchronised" if state != 5 else "still TIME_ERROR")
