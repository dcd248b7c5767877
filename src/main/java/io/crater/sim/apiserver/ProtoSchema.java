package io.crater.sim.apiserver;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The protobuf messages of the built-in kinds a current kubectl creates with its typed clients ({@code kubectl create
 * namespace|configmap|secret|serviceaccount|service}, {@code kubectl run}) and the {@code DeleteOptions} it may send:
 * field numbers, JSON names and types as Kubernetes' {@code generated.proto} of {@code k8s.io/api/core/v1} and
 * {@code k8s.io/apimachinery/pkg/apis/meta/v1} declare them. A message written here lists the fields the simulated
 * cluster reads; what it leaves out (volumes, probes, security contexts, affinity, statuses...) is refused by
 * {@link Protobuf} when it carries a value, never dropped silently.
 *
 * <p>Each field is {@code number jsonName type}; a type is {@code s} string, {@code i} integer, {@code b} bool,
 * {@code y} bytes (base64 in JSON), {@code t} a {@code Time}, {@code q} a {@code Quantity}, {@code n} an
 * {@code IntOrString}, {@code m} a {@code map<string,string>}, {@code my} a {@code map<string,bytes>}, {@code mq} a
 * {@code map<string,Quantity>}, or a message's name; {@code *} before it marks a repeated field, {@code ^} an embedded
 * message whose fields JSON inlines, {@code !} after it a field whose zero value is kept (a pointer in Go).
 */
final class ProtoSchema {

    /** One field of a message. */
    record Field(int number, String name, String type, boolean repeated, boolean inline, boolean keepZero) {}

    private static final String[] MESSAGES = {
        "Namespace", "1 metadata ObjectMeta; 2 spec NamespaceSpec",
        "ConfigMap", "1 metadata ObjectMeta; 4 immutable b; 2 data m; 3 binaryData my",
        "Secret", "1 metadata ObjectMeta; 5 immutable b; 2 data my; 4 stringData m; 3 type s",
        "ServiceAccount",
                "1 metadata ObjectMeta; 2 secrets *ObjectReference; 3 imagePullSecrets *LocalObjectReference; 4 automountServiceAccountToken b",
        "Service", "1 metadata ObjectMeta; 2 spec ServiceSpec",
        "Pod", "1 metadata ObjectMeta; 2 spec PodSpec",
        "DeleteOptions",
                "1 gracePeriodSeconds i!; 2 preconditions Preconditions; 3 orphanDependents b; 4 propagationPolicy s; 5 dryRun *s; 6 ignoreStoreReadErrorWithClusterBreakingPotential b",
        "ObjectMeta",
                "1 name s; 2 generateName s; 3 namespace s; 4 selfLink s; 5 uid s; 6 resourceVersion s; 7 generation i; 8 creationTimestamp t; 9 deletionTimestamp t; 10 deletionGracePeriodSeconds i; 11 labels m; 12 annotations m; 13 ownerReferences *OwnerReference; 14 finalizers *s",
        "NamespaceSpec", "1 finalizers *s",
        "ObjectReference",
                "1 kind s; 2 namespace s; 3 name s; 4 uid s; 5 apiVersion s; 6 resourceVersion s; 7 fieldPath s",
        "LocalObjectReference", "1 name s",
        "ServiceSpec",
                "1 ports *ServicePort; 2 selector m; 3 clusterIP s; 18 clusterIPs *s; 4 type s; 5 externalIPs *s; 7 sessionAffinity s; 8 loadBalancerIP s; 9 loadBalancerSourceRanges *s; 10 externalName s; 11 externalTrafficPolicy s; 12 healthCheckNodePort i; 13 publishNotReadyAddresses b; 19 ipFamilies *s; 17 ipFamilyPolicy s; 20 allocateLoadBalancerNodePorts b; 21 loadBalancerClass s; 22 internalTrafficPolicy s; 23 trafficDistribution s",
        "PodSpec",
                "20 initContainers *Container; 2 containers *Container; 3 restartPolicy s; 4 terminationGracePeriodSeconds i!; 5 activeDeadlineSeconds i; 6 dnsPolicy s; 7 nodeSelector m; 8 serviceAccountName s; 9 serviceAccount s; 21 automountServiceAccountToken b; 10 nodeName s; 11 hostNetwork b; 12 hostPID b; 13 hostIPC b; 27 shareProcessNamespace b; 15 imagePullSecrets *LocalObjectReference; 16 hostname s; 17 subdomain s; 19 schedulerName s; 22 tolerations *Toleration; 24 priorityClassName s; 25 priority i; 29 runtimeClassName s; 30 enableServiceLinks b; 31 preemptionPolicy s; 32 overhead mq; 35 setHostnameAsFQDN b; 37 hostUsers b; 40 resources ResourceRequirements; 41 hostnameOverride s",
        "Preconditions", "1 uid s; 2 resourceVersion s",
        "OwnerReference", "5 apiVersion s; 1 kind s; 3 name s; 4 uid s; 6 controller b; 7 blockOwnerDeletion b",
        "ServicePort", "1 name s; 2 protocol s; 6 appProtocol s; 3 port i; 4 targetPort n; 5 nodePort i",
        "Container",
                "1 name s; 2 image s; 3 command *s; 4 args *s; 5 workingDir s; 6 ports *ContainerPort; 7 env *EnvVar; 8 resources ResourceRequirements; 24 restartPolicy s; 9 volumeMounts *VolumeMount; 13 terminationMessagePath s; 20 terminationMessagePolicy s; 14 imagePullPolicy s; 16 stdin b; 17 stdinOnce b; 18 tty b",
        "Toleration", "1 key s; 2 operator s; 3 value s; 4 effect s; 5 tolerationSeconds i",
        "ResourceRequirements", "1 limits mq; 2 requests mq",
        "ContainerPort", "1 name s; 2 hostPort i; 3 containerPort i; 4 protocol s; 5 hostIP s",
        "EnvVar", "1 name s; 2 value s; 3 valueFrom EnvVarSource",
        "VolumeMount",
                "1 name s; 2 readOnly b; 7 recursiveReadOnly s; 3 mountPath s; 4 subPath s; 5 mountPropagation s; 6 subPathExpr s; 8 bindMountOptions *s",
        "EnvVarSource",
                "1 fieldRef ObjectFieldSelector; 2 resourceFieldRef ResourceFieldSelector; 3 configMapKeyRef ConfigMapKeySelector; 4 secretKeyRef SecretKeySelector",
        "ObjectFieldSelector", "1 apiVersion s; 2 fieldPath s",
        "ResourceFieldSelector", "1 containerName s; 2 resource s; 3 divisor q",
        "ConfigMapKeySelector", "1 localObjectReference ^LocalObjectReference; 2 key s; 3 optional b",
        "SecretKeySelector", "1 localObjectReference ^LocalObjectReference; 2 key s; 3 optional b"
    };

    private static final Map<String, Map<Integer, Field>> BY_NAME = parse(MESSAGES);

    private ProtoSchema() {}

    /** The fields of a message by number, or null when the message is not one the simulated cluster reads. */
    static Map<Integer, Field> message(String name) {
        return BY_NAME.get(name);
    }

    static Map<String, Map<Integer, Field>> parse(String[] table) {
        Map<String, Map<Integer, Field>> out = new HashMap<>();
        for (int i = 0; i < table.length; i += 2) {
            Map<Integer, Field> fields = new LinkedHashMap<>();
            for (String f : table[i + 1].split(";")) {
                String[] p = f.trim().split(" ");
                String type = p[2];
                boolean repeated = type.startsWith("*");
                boolean inline = type.startsWith("^");
                boolean keepZero = type.endsWith("!");
                type = type.replace("*", "").replace("^", "").replace("!", "");
                int number = Integer.parseInt(p[0]);
                fields.put(number, new Field(number, p[1], type, repeated, inline, keepZero));
            }
            out.put(table[i], Map.copyOf(fields));
        }
        return Map.copyOf(out);
    }
}
