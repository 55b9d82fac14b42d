#!/usr/bin/env python3
# testdata/nsys/nvprof-sample.py OUT.sqlite: writes a small nvprof export for the tests
# (tests/e2e/cases/nsys-nvprof.t); nvprof itself is not installed here.
# An nvprof export (nvprof --export-profile), in the layout nvprof's SQLite files have
# (schema version 9 era): a process with two threads, kernels launched by cudaLaunchKernel,
# a copy, a set, NVTX markers (a start/end pair on a thread, a process range, a mark).
import sqlite3, struct, sys
db = sqlite3.connect(sys.argv[1])
x = db.execute
x('CREATE TABLE StringTable(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, value TEXT NOT NULL UNIQUE)')
x('CREATE TABLE Version(version INTEGER)')
x('INSERT INTO Version VALUES(9)')
x('CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, cbid INT NOT NULL, start INT NOT NULL, end INT NOT NULL, processId INT NOT NULL, threadId INT NOT NULL, correlationId INT NOT NULL, returnValue INT NOT NULL)')
x('CREATE TABLE CUPTI_ACTIVITY_KIND_DRIVER(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, cbid INT NOT NULL, start INT NOT NULL, end INT NOT NULL, processId INT NOT NULL, threadId INT NOT NULL, correlationId INT NOT NULL, returnValue INT NOT NULL)')
x('CREATE TABLE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, cacheConfig BLOB NOT NULL, sharedMemoryConfig INT NOT NULL, registersPerThread INT NOT NULL, partitionedGlobalCacheRequested INT NOT NULL, partitionedGlobalCacheExecuted INT NOT NULL, start INT NOT NULL, end INT NOT NULL, completed INT NOT NULL, deviceId INT NOT NULL, contextId INT NOT NULL, streamId INT NOT NULL, gridX INT NOT NULL, gridY INT NOT NULL, gridZ INT NOT NULL, blockX INT NOT NULL, blockY INT NOT NULL, blockZ INT NOT NULL, staticSharedMemory INT NOT NULL, dynamicSharedMemory INT NOT NULL, localMemoryPerThread INT NOT NULL, localMemoryTotal INT NOT NULL, correlationId INT NOT NULL, gridId INT NOT NULL, name INT NOT NULL)')
x('CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, copyKind INT NOT NULL, srcKind INT NOT NULL, dstKind INT NOT NULL, flags INT NOT NULL, bytes INT NOT NULL, start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL, contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT NOT NULL, runtimeCorrelationId INT NOT NULL)')
x('CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, value INT NOT NULL, bytes INT NOT NULL, start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL, contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT NOT NULL, flags INT NOT NULL, memoryKind INT NOT NULL)')
x('CREATE TABLE CUPTI_ACTIVITY_KIND_DEVICE(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, flags INT NOT NULL, globalMemoryBandwidth INT NOT NULL, globalMemorySize INT NOT NULL, numMultiprocessors INT NOT NULL, computeCapabilityMajor INT NOT NULL, computeCapabilityMinor INT NOT NULL, id INT NOT NULL, name INT NOT NULL)')
x('CREATE TABLE CUPTI_ACTIVITY_KIND_MARKER(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, flags INT NOT NULL, timestamp INT NOT NULL, id INT NOT NULL, objectKind INT NOT NULL, objectId BLOB NOT NULL, name INT NOT NULL, domain INT NOT NULL)')
def s(v):
    r = db.execute('SELECT _id_ FROM StringTable WHERE value=?', (v,)).fetchone()
    return r[0] if r else db.execute('INSERT INTO StringTable (value) VALUES (?)', (v,)).lastrowid
T0 = 1600000000000000000
pid, tid, tid2 = 3131, 3131, 3140
x('INSERT INTO CUPTI_ACTIVITY_KIND_DEVICE VALUES (NULL, 0, 900000000, 16945512448, 80, 7, 0, 0, ?)', (s('Tesla V100-SXM2-16GB'),))
corr = 0
for i in range(4):
    t = T0 + 1000000 + i * 100000
    for name, dur, stream in (('_Z6kernelAPf', 7000 + i, 7), ('_Z6kernelBPfi', 3000, 13)):
        corr += 1
        x('INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (NULL, 211, ?, ?, ?, ?, ?, 0)', (t, t + 4000, pid, tid, corr))
        x('INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL VALUES (NULL, x\'00\', 0, 32, 0, 0, ?, ?, ?, 0, 1, ?, 64, 1, 1, 256, 1, 1, 0, 1024, 0, 0, ?, ?, ?)',
          (t + 5000, t + 5000 + dur, t + 5000 + dur, stream, corr, corr, s(name)))
        t += 20000
    corr += 1
    x('INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (NULL, 41, ?, ?, ?, ?, ?, 0)', (t, t + 2000, pid, tid, corr))
    x('INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (NULL, 1, 2, 3, 0, 65536, ?, ?, 0, 1, 7, ?, ?)', (t + 3000, t + 9000, corr, corr))
corr += 1
x('INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (NULL, 51, ?, ?, ?, ?, ?, 0)', (T0 + 900000, T0 + 901000, pid, tid2, corr))
x('INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (NULL, 0, 4096, ?, ?, 0, 1, 7, ?, 0, 3)', (T0 + 902000, T0 + 903000, corr))
x('INSERT INTO CUPTI_ACTIVITY_KIND_DRIVER VALUES (NULL, 440, ?, ?, ?, ?, 0, 0)', (T0 + 100, T0 + 900, pid, tid))
th = struct.pack('<IIi', pid, tid, 0)
pr = struct.pack('<IIi', pid, 0, 0)
for i in range(4):
    t = T0 + 990000 + i * 100000
    x('INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES (NULL, 2, ?, ?, 2, ?, ?, 0)', (t, 10 + i, th, s('ProfilerStep#%d' % (i + 1))))
    x('INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES (NULL, 4, ?, ?, 2, ?, 0, 0)', (t + 95000, 10 + i, th))
x('INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES (NULL, 2, ?, 99, 1, ?, ?, ?)', (T0 + 950000, pr, s('epoch'), s('train')))
x('INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES (NULL, 4, ?, 99, 1, ?, 0, 0)', (T0 + 1400000, pr))
x('INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES (NULL, 1, ?, 100, 2, ?, ?, 0)', (T0 + 1200000, th, s('checkpoint')))
x('INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES (NULL, 2, ?, 101, 2, ?, ?, 0)', (T0 + 1300000, th, s('never ends')))
db.commit()
