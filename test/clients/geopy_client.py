"""Runs geopy's own geocoder classes, unchanged, against the service (test/integration/dialectClients.test.ts).

Usage: geopy_client.py <geocoder> <domain> <key>, the calls as JSON on stdin:
[{"op": "geocode" | "reverse", "query": ..., "kwargs": {...}}, ...]; prints one JSON answer per call (a list), each
{"address", "latitude", "longitude", "raw"} or null, or {"error": "<class>: <message>"}.
"""
import json
import sys

from geopy.geocoders import Nominatim, Pelias, Photon


def geocoder(name, domain, key):
    if name == "nominatim":
        g = Nominatim(domain=domain, scheme="http", user_agent="geocoder-tests")
        # geopy's Nominatim sends no key parameter: its headers (a public attribute) carry X-Api-Key.
        g.headers["X-Api-Key"] = key
        return g
    if name == "photon":
        g = Photon(domain=domain, scheme="http", user_agent="geocoder-tests")
        g.headers["X-Api-Key"] = key
        return g
    if name == "pelias":
        # geopy's Pelias sends api_key= in the query string itself.
        return Pelias(domain=domain, api_key=key, scheme="http", user_agent="geocoder-tests")
    raise ValueError(name)


def answer(location):
    if location is None:
        return None
    if isinstance(location, list):
        return [answer(l) for l in location]
    return {
        "address": location.address,
        "latitude": location.latitude,
        "longitude": location.longitude,
        "raw": location.raw,
    }


def main():
    name, domain, key = sys.argv[1:4]
    g = geocoder(name, domain, key)
    out = []
    for call in json.load(sys.stdin):
        try:
            method = getattr(g, call["op"])
            out.append(answer(method(call["query"], **call.get("kwargs", {}))))
        except Exception as error:  # the test asserts on it
            out.append({"error": "%s: %s" % (type(error).__name__, error)})
    json.dump(out, sys.stdout)


main()
