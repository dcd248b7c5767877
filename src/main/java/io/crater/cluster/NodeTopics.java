package io.crater.cluster;

import io.crater.events.TopicAuthorizer;
import io.crater.identity.CurrentUser;
import io.crater.identity.TokenService.TokenUser;
import io.crater.platform.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** The {@code nodes} topic: platform admins only. */
@ApplicationScoped
public class NodeTopics implements TopicAuthorizer {

    @Override
    public boolean handles(String topic) {
        return topic.equals("nodes");
    }

    @Override
    public Uni<Void> authorize(String topic, TokenUser user) {
        if (!CurrentUser.isAdmin(user)) {
            return Uni.createFrom()
                    .failure(
                            ApiException.forbidden("TopicForbidden", "you may not subscribe to topic '" + topic + "'"));
        }
        return Uni.createFrom().voidItem();
    }

    @Override
    public String describe() {
        return "nodes";
    }
}
