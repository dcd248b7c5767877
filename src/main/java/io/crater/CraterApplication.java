package io.crater;

import io.crater.identity.InitialAdmin;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Runs once Quarkus and its HTTP server are up: tells the person who started Crater where to find it. */
public class CraterApplication implements QuarkusApplication {

    @Inject
    InitialAdmin initialAdmin;

    @ConfigProperty(name = "quarkus.http.host")
    String host;

    @ConfigProperty(name = "quarkus.http.port")
    int port;

    @Override
    public int run(String... args) {
        String url = "http://" + ("0.0.0.0".equals(host) ? "127.0.0.1" : host) + ":" + port + "/";
        StringBuilder banner = new StringBuilder("\n  Crater is running.\n  Console: ")
                .append(url)
                .append('\n');
        initialAdmin
                .firstLogin()
                .ifPresentOrElse(
                        login -> banner.append("  First login: username ")
                                .append(login.username())
                                .append("  password ")
                                .append(login.password())
                                .append('\n')
                                .append("  (also in ")
                                .append(initialAdmin.credentialsFile())
                                .append(", readable by you only)\n"),
                        () -> banner.append(
                                        "  Sign in with your account; the first administrator's credentials are in ")
                                .append(initialAdmin.credentialsFile())
                                .append(" if it has not been removed.\n"));
        var apps = io.quarkus.arc.Arc.container()
                .instance(io.crater.interactive.AppProxy.class)
                .get();
        var ssh = io.quarkus.arc.Arc.container()
                .instance(io.crater.interactive.SshGateway.class)
                .get();
        if (apps.port() > 0) {
            banner.append("  Apps of jobs: ").append(apps.origin("<job>")).append('\n');
        }
        if (ssh.port() > 0) {
            banner.append("  SSH into jobs: ssh -p ").append(ssh.port()).append(" <user>+<job>@localhost\n");
        }
        System.out.println(banner);
        System.out.flush();
        Quarkus.waitForExit();
        return 0;
    }
}
