#!/usr/bin/env python3
"""Folio's container image as a container runtime would take it, without one.

Reads the image's configuration back with skopeo (the user is folio, not root; port 8080; the
volumes /library and /var/lib/folio; the entrypoint /usr/bin/folio serve /library on every
address; SIGTERM), checks nothing private was baked in (no token, no local authority), then
unpacks the image with umoci and runs its entrypoint and command in that root with chroot as
the image's user, a library in /library as a volume would put it: /healthz answers ok without a
token (and the Containerfile's HEALTHCHECK passes), /api/scores lists the library with the token
the server printed, and SIGTERM stops it with exit 0. Then compose.yaml's command: HTTPS from an
authority made in the state volume, the token a Compose secret, its health check. The
docker-archive beside the layout is checked by skopeo too.

Usage: python3 Tests/Install/image_e2e.py OCI-LAYOUT [ARCHIVE]
"""
import http.client
import json
import os
import shutil
import subprocess
import ssl
import sys
import tempfile

import yaml

from checks import REPOSITORY, SAMPLES, expect, free_port, serve_in_root, stop


def start(rootfs, entrypoint, arguments, environment):
    """The image's entrypoint run in its root as its user; the process and the token it printed."""
    port = int(arguments[arguments.index("--port") + 1])
    process, serving = serve_in_root(rootfs, [*entrypoint, *arguments], environment, port)
    return process, (serving.split("?token=")[-1] if "?token=" in serving else None)


def get(port, path, authorization=None, tls=None):
    if tls:
        connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=30, context=tls)
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers={"Host": f"localhost:{port}", **({"Authorization": authorization} if authorization else {})})
    response = connection.getresponse()
    return response.status, response.read()


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    layout = os.path.abspath(sys.argv[1])
    index = json.load(open(os.path.join(layout, "index.json"), encoding="utf-8"))
    tag = index["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"]
    reference = f"oci:{layout}:{tag}"
    config = json.loads(subprocess.run(["skopeo", "inspect", "--config", reference], check=True, capture_output=True, text=True).stdout)
    settings = config["config"]
    print(f"The image {tag}, as skopeo reads it:")
    expect(settings.get("User") == "folio", f"it runs as folio, not root ({settings.get('User')})")
    expect(list(settings.get("ExposedPorts", {})) == ["8080/tcp"], "it exposes 8080/tcp")
    expect(sorted(settings.get("Volumes", {})) == ["/library", "/var/lib/folio"], "the library and the state are volumes")
    expect(settings.get("Entrypoint") == ["/usr/bin/folio"], "the entrypoint is /usr/bin/folio")
    command = settings.get("Cmd", [])
    expect(command[:2] == ["serve", "/library"] and "0.0.0.0" in command, f"the command serves /library on every address ({command})")
    expect(settings.get("StopSignal") == "SIGTERM", "it stops on SIGTERM")
    if len(sys.argv) > 2:
        archived = json.loads(subprocess.run(["skopeo", "inspect", "--config", f"docker-archive:{os.path.abspath(sys.argv[2])}"],
                                             check=True, capture_output=True, text=True).stdout)
        expect(archived["config"].get("Entrypoint") == settings.get("Entrypoint"), "the docker-archive holds the same image")

    work = tempfile.mkdtemp(prefix="folio-image-")
    try:
        bundle = os.path.join(work, "bundle")
        subprocess.run(["umoci", "unpack", "--image", f"{layout}:{tag}", bundle], check=True, capture_output=True)
        rootfs = os.path.join(bundle, "rootfs")
        print("Its root, unpacked by umoci:")
        expect(not os.path.exists(os.path.join(rootfs, "var/lib/folio/token")), "no access token is baked in")
        expect(not os.path.exists(os.path.join(rootfs, "var/lib/folio/tls")), "no local authority is baked in")
        expect(os.access(os.path.join(rootfs, "usr/bin/folio"), os.X_OK), "/usr/bin/folio is there")
        library = os.path.join(rootfs, "library")
        names = {"Brahms-Cancion_de_Cuna.pdf": "Брамс – Wiegenlied.pdf", "Traditional-Greensleeves_hymntune.pdf": "グリーンスリーブス.pdf"}
        for sample, name in names.items():
            shutil.copy(os.path.join(SAMPLES, sample), os.path.join(library, name))
        owner = os.stat(os.path.join(rootfs, "var/lib/folio"))
        for entry in [library] + [os.path.join(library, name) for name in names.values()]:
            os.chown(entry, owner.st_uid, owner.st_gid)
        # A container runtime mounts /proc; a static Swift binary reads its arguments there.
        proc = os.path.join(rootfs, "proc")
        os.makedirs(proc, exist_ok=True)
        subprocess.run(["mount", "-t", "proc", "proc", proc], check=True)
        environment = dict(item.split("=", 1) for item in settings.get("Env", []))
        environment["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin:" + environment.get("PATH", "")

        print("The image's own command, its library a volume:")
        port = free_port()
        process, token = start(rootfs, settings["Entrypoint"], [str(port) if word == "8080" else word for word in command], environment)
        expect(token is not None and len(token) >= 16, "the server started and printed a token of its own")
        try:
            status, body = get(port, "/healthz")
            expect(status == 200 and body == b"ok\n", "/healthz answers ok without the token (the health check's request)")
            # The Containerfile's HEALTHCHECK, run in the image's root as its user.
            containerfile = open(os.path.join(REPOSITORY, "Packaging/container/Containerfile"), encoding="utf-8").read()
            health = json.loads(containerfile.split("HEALTHCHECK", 1)[1].split("CMD", 1)[1].splitlines()[0].strip())
            health = [word.replace("8080", str(port)) for word in health]
            checked = subprocess.run(["chroot", "--userspec=folio:folio", rootfs, *health], env=environment, capture_output=True, timeout=30)
            expect(checked.returncode == 0, "the Containerfile's health check passes against it")
            status, _ = get(port, "/api/scores")
            expect(status == 401, "the library asks for the token")
            status, body = get(port, "/api/scores", f"Bearer {token}")
            paths = sorted(score["path"] for score in json.loads(body)["scores"])
            expect(status == 200 and paths == sorted(names.values()), f"/api/scores lists the volume's scores ({paths})")
        finally:
            code = stop(process)
        expect(code == 0, f"SIGTERM stops it with exit 0 ({code})")

        print("compose.yaml's command: HTTPS from the state volume's authority, the token a secret:")
        service = yaml.safe_load(open(os.path.join(REPOSITORY, "Packaging/container/compose.yaml"), encoding="utf-8"))["services"]["folio"]
        secret = "c0ffee" * 6
        secrets = os.path.join(rootfs, "run/secrets")
        os.makedirs(secrets, exist_ok=True)
        with open(os.path.join(secrets, "folio_token"), "w", encoding="utf-8") as file:
            file.write(secret + "\n")
        os.chmod(os.path.join(secrets, "folio_token"), 0o600)
        os.chown(os.path.join(secrets, "folio_token"), owner.st_uid, owner.st_gid)
        port = free_port()
        process, _ = start(rootfs, settings["Entrypoint"], [str(port) if word == "8443" else word for word in service["command"]], environment)
        try:
            authority = ssl.create_default_context(cafile=os.path.join(rootfs, "var/lib/folio/tls/folio-ca.pem"))
            authority.check_hostname = False
            status, body = get(port, "/healthz", tls=authority)
            expect(status == 200 and body == b"ok\n", "/healthz over HTTPS, the authority made in the state volume")
            status, body = get(port, "/api/scores", f"Bearer {secret}", tls=authority)
            expect(status == 200 and len(json.loads(body)["scores"]) == len(names), "the secret's token opens the library")
            probe = [word.replace("8443", str(port)) for word in service["healthcheck"]["test"][1:]]
            checked = subprocess.run(["chroot", "--userspec=folio:folio", rootfs, *probe], env=environment, capture_output=True, timeout=30)
            expect(checked.returncode == 0, "compose.yaml's health check passes against it")
        finally:
            code = stop(process)
        expect(code == 0, f"SIGTERM stops it with exit 0 ({code})")
        print("image_e2e: all passed")
    finally:
        if os.path.ismount(os.path.join(work, "bundle/rootfs/proc")):
            subprocess.run(["umount", os.path.join(work, "bundle/rootfs/proc")], check=False)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
