package io.crater.interactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.job.PodAccess;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The exec stream's pure parts: the exit status from the final Status, the request's address, the output's order. */
class ExecStreamTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "success|{\"metadata\":{},\"status\":\"Success\"}|0",
                "exit 2|{\"status\":\"Failure\",\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":[{\"reason\":\"ExitCode\",\"message\":\"2\"}]}}|2",
                "exit 127|{\"status\":\"Failure\",\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":[{\"reason\":\"Other\",\"message\":\"x\"},{\"reason\":\"ExitCode\",\"message\":\"127\"}]}}|127",
                "no exit code|{\"status\":\"Failure\",\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":[]}}|-1",
                "exit code not a number|{\"status\":\"Failure\",\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":[{\"reason\":\"ExitCode\",\"message\":\"x\"}]}}|-1",
                "another failure|{\"status\":\"Failure\",\"reason\":\"InternalError\",\"message\":\"no such file\"}|-1",
                "not JSON|oops|-1"
            })
    void theExitStatusComesFromTheFinalStatus(String name, String status, int code) {
        assertThat(ExecStream.exitCode(status)).isEqualTo(code);
    }

    @org.junit.jupiter.api.Test
    void theAddressNamesEveryWordTheContainerAndTheStreams() {
        var target = new PodAccess.Target("j1", "custom", "lab", 1, "crater-jobs", "c-j1-main-0", "0", "main", false);
        assertThat(PodExec.uri("https://k8s:6443/", target, List.of("/bin/sh", "-c", "ls -a & echo ü"), false)
                        .toString())
                .isEqualTo("https://k8s:6443/api/v1/namespaces/crater-jobs/pods/c-j1-main-0/exec?command=%2Fbin%2Fsh"
                        + "&command=-c&command=ls%20-a%20%26%20echo%20%C3%BC&container=main&stdin=true&stdout=true"
                        + "&stderr=true&tty=false");
        assertThat(PodExec.uri("http://127.0.0.1:1234", target, PodExec.SHELL, true)
                        .toString())
                .endsWith("/exec?command=bash&command=-l&container=main&stdin=true&stdout=true&stderr=false&tty=true");
    }

    @org.junit.jupiter.api.Test
    void aStreamsOutputKeepsItsOrderOnASharedPool() throws Exception {
        var pool = Executors.newFixedThreadPool(4);
        try {
            var serial = new ExecStream.Serial(pool);
            List<Integer> seen = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(1000);
            for (int i = 0; i < 1000; i++) {
                int n = i;
                serial.execute(() -> {
                    seen.add(n);
                    done.countDown();
                });
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(seen).isSorted().hasSize(1000);
        } finally {
            pool.shutdownNow();
        }
    }
}
