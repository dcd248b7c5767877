package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The packaged application survives {@code kill -9}: the second start finds the PostgreSQL the first one left
 * running, stops it, starts its own on the same data, and the administrator's password still works.
 */
class RestartIT {

    @Test
    void killNineThenStartAgainKeepsTheAdministrator() throws Exception {
        Path home = TestDirs.create("crater-restart");
        try (PackagedApp first = new PackagedApp(home).start()) {
            String[] admin = first.initialAdmin();
            assertThat(first.output()).anyMatch(l -> l.contains("First login: username admin") && l.contains(admin[1]));
            String login = "{\"username\":\"" + admin[0] + "\",\"password\":\"" + admin[1] + "\"}";
            assertThat(first.post("/api/v1/auth/login", login).statusCode()).isEqualTo(200);
            assertThat(first.get("/q/health/ready").body()).contains("\"status\": \"UP\"");
            System.out.printf(
                    "first start: %d ms to the banner, RSS %d MiB%n", first.startMillis(), first.rssKib() / 1024);
            first.kill9();
            long leftover = Long.parseLong(Files.readAllLines(home.resolve("postgres/postmaster.pid"))
                    .get(0)
                    .trim());
            assertThat(ProcessHandle.of(leftover).map(ProcessHandle::isAlive)).contains(true);

            try (PackagedApp second = new PackagedApp(home).start()) {
                assertThat(second.output()).noneMatch(l -> l.contains(admin[1]));
                assertThat(second.post("/api/v1/auth/login", login).statusCode())
                        .isEqualTo(200);
                assertThat(second.post("/api/v1/auth/login", login.replace(admin[1], "wrong"))
                                .statusCode())
                        .isEqualTo(401);
                assertThat(ProcessHandle.of(leftover)
                                .map(ProcessHandle::isAlive)
                                .orElse(false))
                        .isFalse();
                System.out.printf(
                        "restart after kill -9: %d ms to the banner, RSS %d MiB%n",
                        second.startMillis(), second.rssKib() / 1024);
            }
        }
    }
}
