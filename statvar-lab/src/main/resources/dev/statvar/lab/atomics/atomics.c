/*
 * statvar lab atomics: the native reference of Martin Thompson's "Adventures with AtomicLong" (2011) and "Further Adventures With CAS Instructions And Micro Benchmarking" (2013), written fresh in C11 with
 * GCC's atomic builtins. The lab writes this file into its results folder and compiles it there
 * with: gcc -O2 -pthread -o atomics atomics.c
 *
 * Usage: atomics CASE WARMUPS REPEATS DELAY:THREADS:COUNT...
 *   CASE: ATOMICLONG LOCK_ADD LOCK_XADD CAS_BOOL CAS_VAL
 * Prints, per measured run, the same RESULT line as the Java runner (AtomicsRunner.java), and a
 * PROGRESS line after every run. The protocol, the sampling of the values each thread got and
 * the run lengths are those of AtomicsRunner and Fairness.java.
 *
 * ATOMICLONG here is what java.util.concurrent.atomic.AtomicLong.incrementAndGet() was in the
 * JDK that "Adventures with AtomicLong" measured (JDK 6/7): a CAS loop, for (;;) { v = get(); if (CAS(v, v + 1))
 * return v + 1; }. Since JDK 8 the JIT compiles incrementAndGet to lock xadd.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WINDOW_SHIFT 14
#define WINDOW (1 << WINDOW_SHIFT)
#define MAX_SAMPLED (1LL << 22)

/* The counter alone on its 128-byte pair of cache lines. */
static struct {
    char before[128];
    volatile uint64_t value;
    char after[120];
} __attribute__((aligned(128))) cell;

typedef struct {
    uint64_t count;
    uint64_t share;
    int delay;
    int logk;
    uint32_t *samples;
    uint64_t sampled_length;
    uint64_t ops;
    uint64_t failures;
    double sink;
    pthread_barrier_t *ready;
    pthread_barrier_t *go;
    int which;
    uint64_t end_ns;
} worker_t;

static volatile double global_sink;

static uint64_t now_ns(void);
static void die(const char *msg);

static inline int sampled(uint64_t v, int logk) {
    return ((v >> WINDOW_SHIFT) & ((1ULL << logk) - 1)) == 0;
}

/* The loop's results: increments, failed CAS attempts, values sampled, the delay work's sum. */
static void done(worker_t *w, uint64_t ops, uint64_t failures, uint64_t n, double sink) {
    w->ops = ops;
    w->failures = failures;
    w->sampled_length = n;
    w->sink = sink;
}

#define DELAY_WORK(w, sink)                          \
    for (int j = 1; j <= (w)->delay; j++) {          \
        sink += 1.0 / j;                             \
    }

__attribute__((noinline)) static void run_atomiclong(worker_t *w) {
    const uint64_t count = w->count;
    uint64_t n = 0, ops = 0, failures = 0, v = 0;
    double sink = 0;
    while (v < count) {
        DELAY_WORK(w, sink)
        for (;;) { /* the JDK 6/7 incrementAndGet */
            uint64_t cur = cell.value;
            if (__sync_bool_compare_and_swap(&cell.value, cur, cur + 1)) {
                v = cur + 1;
                break;
            }
            failures++;
        }
        ops++;
        if (sampled(v, w->logk)) {
            w->samples[n++] = (uint32_t) v;
        }
    }
    done(w, ops, failures, n, sink);
}

__attribute__((noinline)) static void run_lock_add(worker_t *w) {
    const uint64_t share = w->share;
    double sink = 0;
    for (uint64_t i = 0; i < share; i++) {
        DELAY_WORK(w, sink)
        __atomic_fetch_add(&cell.value, 1, __ATOMIC_SEQ_CST); /* result unused */
    }
    done(w, share, 0, 0, sink);
}

__attribute__((noinline)) static void run_lock_xadd(worker_t *w) {
    const uint64_t count = w->count;
    uint64_t n = 0, ops = 0, v = 0;
    double sink = 0;
    while (v < count) {
        DELAY_WORK(w, sink)
        v = __atomic_add_fetch(&cell.value, 1, __ATOMIC_SEQ_CST);
        ops++;
        if (sampled(v, w->logk)) {
            w->samples[n++] = (uint32_t) v;
        }
    }
    done(w, ops, 0, n, sink);
}

__attribute__((noinline)) static void run_cas_bool(worker_t *w) {
    const uint64_t count = w->count;
    uint64_t n = 0, ops = 0, failures = 0;
    double sink = 0;
    for (;;) {
        DELAY_WORK(w, sink)
        uint64_t cur = cell.value;
        while (cur < count && !__sync_bool_compare_and_swap(&cell.value, cur, cur + 1)) {
            failures++;
            cur = cell.value; /* re-read, as the article's run_cas */
        }
        if (cur >= count) {
            break;
        }
        uint64_t v = cur + 1;
        ops++;
        if (sampled(v, w->logk)) {
            w->samples[n++] = (uint32_t) v;
        }
    }
    done(w, ops, failures, n, sink);
}

__attribute__((noinline)) static void run_cas_val(worker_t *w) {
    const uint64_t count = w->count;
    uint64_t n = 0, ops = 0, failures = 0;
    double sink = 0;
    for (;;) {
        DELAY_WORK(w, sink)
        uint64_t cur = cell.value;
        while (cur < count) {
            uint64_t witness = __sync_val_compare_and_swap(&cell.value, cur, cur + 1);
            if (witness == cur) {
                break;
            }
            failures++;
            cur = witness; /* retry with the value seen */
        }
        if (cur >= count) {
            break;
        }
        uint64_t v = cur + 1;
        ops++;
        if (sampled(v, w->logk)) {
            w->samples[n++] = (uint32_t) v;
        }
    }
    done(w, ops, failures, n, sink);
}

/* Thompson's 2013 run_cas2 as written: the inner loop ends when a CAS's witness equals the value it
   tried to set, i.e. one more, failing, CAS confirms each increment (AtomicsRunner.loopCasValSeed). */
__attribute__((noinline)) static void run_cas_val_seed(worker_t *w) {
    const uint64_t count = w->count;
    uint64_t n = 0, ops = 0, failures = 0;
    double sink = 0;
    uint64_t value = 0;
    while (value < count) {
        DELAY_WORK(w, sink)
        value = cell.value;
        uint64_t next;
        do {
            next = value + 1;
            uint64_t witness = __sync_val_compare_and_swap(&cell.value, value, next);
            if (witness == value) {
                ops++;
                if (next <= count && sampled(next, w->logk)) {
                    w->samples[n++] = (uint32_t) next;
                }
            } else {
                failures++;
            }
            value = witness;
        } while (value != next);
    }
    done(w, ops, failures, n, sink);
}

static const char *CASES[] = {"ATOMICLONG", "LOCK_ADD", "LOCK_XADD", "CAS_BOOL", "CAS_VAL", "CAS_VAL_SEED"};

static uint64_t now_ns(void);

/* The disturbance probe of AtomicsRunner.disturbed(): each thread does 100,000 iterations of
   20 terms of delay work, touching nothing shared. */
#define PROBE_ITERATIONS 100000
#define PROBE_DELAY 20
#define DISTURBED 1.25
#define MAX_REDO 3

static void *probe_main(void *arg) {
    double sum = 0;
    for (int i = 0; i < PROBE_ITERATIONS; i++) {
        for (int j = 1; j <= PROBE_DELAY; j++) {
            sum += 1.0 / j;
        }
    }
    *(double *) arg = sum;
    return NULL;
}

static uint64_t probe(int threads) {
    pthread_t ts[threads];
    double sinks[threads];
    uint64_t t0 = now_ns();
    for (int t = 0; t < threads; t++) {
        if (pthread_create(&ts[t], NULL, probe_main, &sinks[t]) != 0) {
            die("pthread_create failed");
        }
    }
    for (int t = 0; t < threads; t++) {
        pthread_join(ts[t], NULL);
        global_sink += sinks[t];
    }
    return now_ns() - t0;
}

static uint64_t solo_probe = 0;

/* Whether the run just made was disturbed: the probe after it against the fastest of three
   one-thread probes (see AtomicsRunner.disturbed). */
static int disturbed(int threads) {
    if (solo_probe == 0) {
        solo_probe = UINT64_MAX;
        for (int i = 0; i < 3; i++) {
            uint64_t p = probe(1);
            solo_probe = p < solo_probe ? p : solo_probe;
        }
    }
    return probe(threads) > DISTURBED * solo_probe;
}

static void *thread_main(void *arg) {
    worker_t *w = arg;
    pthread_barrier_wait(w->ready);
    pthread_barrier_wait(w->go);
    switch (w->which) {
    case 0: run_atomiclong(w); break;
    case 1: run_lock_add(w); break;
    case 2: run_lock_xadd(w); break;
    case 3: run_cas_bool(w); break;
    case 4: run_cas_val(w); break;
    default: run_cas_val_seed(w); break;
    }
    w->end_ns = now_ns();
    return NULL;
}

static int logk_of(uint64_t count) {
    int logk = 3;
    while ((count >> logk) > (uint64_t) MAX_SAMPLED) {
        logk++;
    }
    return logk;
}

static uint64_t capacity(uint64_t max_value, int logk) {
    uint64_t windows = (max_value >> (WINDOW_SHIFT + logk)) + 1;
    return windows << WINDOW_SHIFT;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
}

static void die(const char *msg) {
    fprintf(stderr, "atomics: %s\n", msg);
    exit(2);
}

/* The RESULT line of the last run, without its repeat number. */
static char last_line[1 << 16];

/* One run: its RESULT line goes to last_line. */
static void run(int which, int delay, int threads, uint64_t count) {
    cell.value = 0;
    int logk = logk_of(count);
    uint64_t cap = capacity(count + threads, logk);
    worker_t *ws = calloc(threads, sizeof(worker_t));
    pthread_t *ts = calloc(threads, sizeof(pthread_t));
    pthread_barrier_t ready, go;
    if (!ws || !ts || pthread_barrier_init(&ready, NULL, threads + 1) != 0
            || pthread_barrier_init(&go, NULL, threads + 1) != 0) {
        die("out of memory");
    }
    for (int t = 0; t < threads; t++) {
        ws[t].count = count;
        ws[t].share = count / threads + ((uint64_t) t < count % threads ? 1 : 0);
        ws[t].delay = delay;
        ws[t].logk = logk;
        ws[t].samples = which == 1 ? NULL : malloc(cap * sizeof(uint32_t));
        if (which != 1 && !ws[t].samples) {
            die("out of memory for samples");
        }
        ws[t].ready = &ready;
        ws[t].go = &go;
        ws[t].which = which;
        if (pthread_create(&ts[t], NULL, thread_main, &ws[t]) != 0) {
            die("pthread_create failed");
        }
    }
    /* Every thread is up; the clock starts before they are let go (the main thread may then be
       preempted), and stops at the last thread's end, read by that thread. */
    pthread_barrier_wait(&ready);
    uint64_t t0 = now_ns();
    pthread_barrier_wait(&go);
    uint64_t end = t0;
    for (int t = 0; t < threads; t++) {
        pthread_join(ts[t], NULL);
        end = ws[t].end_ns > end ? ws[t].end_ns : end;
    }
    uint64_t duration = end - t0;
    uint64_t ops = 0, failures = 0, sampled_total = 0, runs = 0;
    for (int t = 0; t < threads; t++) {
        ops += ws[t].ops;
        failures += ws[t].failures;
        global_sink += ws[t].sink;
    }
    if (cell.value != ops || cell.value < count) {
        fprintf(stderr, "atomics: %s: the counter ended at %" PRIu64 " after %" PRIu64 " increments\n",
                CASES[which], (uint64_t) cell.value, ops);
        exit(3);
    }
    if (which != 1) {
        int16_t *owner = malloc(cap * sizeof(int16_t));
        if (!owner) {
            die("out of memory for owners");
        }
        memset(owner, 0xff, cap * sizeof(int16_t)); /* -1 */
        for (int t = 0; t < threads; t++) {
            for (uint64_t i = 0; i < ws[t].sampled_length; i++) {
                uint64_t v = ws[t].samples[i];
                uint64_t idx = ((v >> (WINDOW_SHIFT + logk)) << WINDOW_SHIFT) | (v & (WINDOW - 1));
                if (owner[idx] != -1) {
                    die("a value was obtained by two threads");
                }
                owner[idx] = (int16_t) t;
                sampled_total++;
            }
        }
        int prev = -1;
        for (uint64_t i = 0; i < cap; i++) {
            int o = owner[i];
            if (o >= 0 && (o != prev || (i & (WINDOW - 1)) == 0)) {
                runs++;
            }
            prev = o;
        }
        free(owner);
    }
    int at = snprintf(last_line, sizeof last_line, "RESULT impl=native case=%s delay=%d threads=%d count=%" PRIu64
                      " ops=%" PRIu64 " duration_ns=%" PRIu64 " failures=%" PRIu64 " sampled=%" PRIu64 " runs=%" PRIu64
                      " shares=", CASES[which], delay, threads, count, ops, duration, failures, sampled_total, runs);
    for (int t = 0; t < threads && at < (int) sizeof last_line - 24; t++) {
        at += snprintf(last_line + at, sizeof last_line - at, t == 0 ? "%" PRIu64 : ",%" PRIu64, ws[t].ops);
    }
    for (int t = 0; t < threads; t++) {
        free(ws[t].samples);
    }
    free(ws);
    free(ts);
    pthread_barrier_destroy(&ready);
    pthread_barrier_destroy(&go);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        die("usage: atomics CASE WARMUPS REPEATS DELAY:THREADS:COUNT...");
    }
    int which = -1;
    for (int i = 0; i < 6; i++) {
        if (strcmp(argv[1], CASES[i]) == 0) {
            which = i;
        }
    }
    if (which < 0) {
        die("unknown case");
    }
    int warmups = atoi(argv[2]);
    int repeats = atoi(argv[3]);
    for (int a = 4; a < argc; a++) {
        int delay, threads;
        unsigned long long count;
        if (sscanf(argv[a], "%d:%d:%llu", &delay, &threads, &count) != 3 || threads < 1 || threads > 30000) {
            die("bad cell (DELAY:THREADS:COUNT)");
        }
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        for (int r = 0; r < warmups + repeats; r++) {
            run(which, delay, threads, count);
            int redone = 0;
            while (r >= warmups && threads <= cores && redone < MAX_REDO && disturbed(threads)) {
                run(which, delay, threads, count); /* the host slowed this run down: again */
                redone++;
            }
            if (r >= warmups) {
                printf("%s repeat=%d redone=%d\n", last_line, r - warmups, redone);
            }
            printf("PROGRESS delay=%d threads=%d\n", delay, threads);
            fflush(stdout);
        }
    }
    return 0;
}
