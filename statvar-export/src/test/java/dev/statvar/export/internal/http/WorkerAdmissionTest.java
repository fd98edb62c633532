package dev.statvar.export.internal.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which requests go to the workers now and which wait (issue 32 point 1): capacity 4, pipelined share 2. */
class WorkerAdmissionTest {
    private static HttpConnection connection() {
        return new HttpConnection(null);
    }

    @Test
    void pipelinedRequestsTakeOnlyTheirShareAndWaitBehindTheOthers() {
        WorkerAdmission a = new WorkerAdmission(4, 2);
        HttpConnection p1 = connection();
        HttpConnection p2 = connection();
        HttpConnection p3 = connection();
        assertTrue(a.admit(p1, true));
        assertTrue(a.admit(p2, true));
        assertFalse(a.admit(p3, true), "the pipelined share (2) is taken: it waits");
        assertSame(p3, a.oldestPipelined());
        HttpConnection n1 = connection();
        HttpConnection n2 = connection();
        HttpConnection n3 = connection();
        assertTrue(a.admit(n1, false), "the rest of the capacity stays for requests that are not pipelined");
        assertTrue(a.admit(n2, false));
        assertFalse(a.admit(n3, false), "capacity 4 reached: it waits");
        assertNull(a.next(), "nothing may go while 4 are with the workers");

        a.done(); // 3 with the workers
        assertSame(n3, a.next(), "a waiting request that is not pipelined goes first");
        assertNull(a.next());
        a.done();
        a.done(); // 2: the pipelined share is still taken
        assertNull(a.next(), "pipelined ones go only below their share");
        a.done(); // 1
        assertSame(p3, a.next());
        assertNull(a.oldestPipelined());
    }

    @Test
    void aRequestDoesNotOvertakeOnesWaitingBeforeIt() {
        WorkerAdmission a = new WorkerAdmission(1, 1);
        assertTrue(a.admit(connection(), false));
        HttpConnection waiting = connection();
        assertFalse(a.admit(waiting, false));
        a.done();
        assertFalse(a.admit(connection(), false), "the one already waiting is first");
        assertSame(waiting, a.next());
        HttpConnection removed = connection();
        assertFalse(a.admit(removed, true));
        a.remove(removed);
        a.done();
        assertNull(a.oldestPipelined(), "a closed connection's request is forgotten");
    }
}
