package io.crater.sim.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.sim.Simulator;
import io.crater.sim.cluster.SimPods;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** SelfSubjectAccessReviews answered by the in-process API server: all allowed, but what a rule denies. */
class AccessReviewsTest {

    static InProcessApiServer server;
    static SimPods pods;
    static String url;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        server = new InProcessApiServer(Clock.systemUTC());
        pods = SimPods.behind(server);
        url = server.start(0);
        client = Simulator.clientFor(url);
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
        pods.close();
    }

    static SelfSubjectAccessReview ask(String verb, String group, String resource, String sub, String namespace) {
        return client.authorization()
                .v1()
                .selfSubjectAccessReview()
                .create(new SelfSubjectAccessReviewBuilder()
                        .withNewSpec()
                        .withNewResourceAttributes()
                        .withVerb(verb)
                        .withGroup(group)
                        .withResource(resource)
                        .withSubresource(sub)
                        .withNamespace(namespace)
                        .endResourceAttributes()
                        .endSpec()
                        .build());
    }

    @Test
    void allowsAllButWhatIsDenied() throws Exception {
        assertThat(ask("create", "", "pods", "exec", "jobs").getStatus().getAllowed())
                .isTrue();

        server.accessReviews().deny(new AccessReviews.Rule("create", "", "pods/exec", "jobs"));
        server.accessReviews().deny(new AccessReviews.Rule("*", "scheduling.volcano.sh", "queues", null));
        SelfSubjectAccessReview denied = ask("create", "", "pods", "exec", "jobs");
        assertThat(denied.getStatus().getAllowed()).isFalse();
        assertThat(denied.getStatus().getDenied()).isTrue();
        assertThat(denied.getStatus().getReason()).isNotBlank();
        assertThat(denied.getSpec().getResourceAttributes().getVerb()).isEqualTo("create");
        // Another namespace, another subresource, another verb: allowed.
        assertThat(ask("create", "", "pods", "exec", "other").getStatus().getAllowed())
                .isTrue();
        assertThat(ask("create", "", "pods", "portforward", "jobs").getStatus().getAllowed())
                .isTrue();
        assertThat(ask("get", "", "pods", "exec", "jobs").getStatus().getAllowed())
                .isTrue();
        // A rule without a namespace denies at cluster scope and in every namespace.
        assertThat(ask("list", "scheduling.volcano.sh", "queues", null, null)
                        .getStatus()
                        .getAllowed())
                .isFalse();
        assertThat(ask("watch", "scheduling.volcano.sh", "queues", null, "jobs")
                        .getStatus()
                        .getAllowed())
                .isFalse();

        server.accessReviews().allowAll();
        assertThat(ask("create", "", "pods", "exec", "jobs").getStatus().getAllowed())
                .isTrue();

        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> get = http.send(
                HttpRequest.newBuilder(URI.create(url + "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
        HttpResponse<String> empty = http.send(
                HttpRequest.newBuilder(URI.create(url + "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(empty.body()).contains("\"kind\":\"Status\"");
    }
}
