"""What the zeep interop scripts share (zeep_client.py, contract_zeep.py): a
transport that reaches one origin only, a handler that collects zeep's
warnings, zeep's objects as JSON, and the last envelopes HistoryPlugin kept.
"""
import datetime
import decimal
import logging
from urllib.parse import urlsplit

from lxml import etree
from zeep.helpers import serialize_object
from zeep.transports import Transport


class LoopbackOnly(Transport):
    """A transport that reaches only `origin` ((scheme, netloc)), and notes what it loads."""

    def __init__(self, origin):
        super().__init__(cache=None, timeout=30, operation_timeout=30)
        self.origin = origin
        self.loaded = []
        self.session.trust_env = False  # no proxy variables, no .netrc

    def check(self, url):
        parts = urlsplit(url)
        if (parts.scheme, parts.netloc) != self.origin:
            raise RuntimeError('zeep tried to reach %s, outside %s://%s' % ((url,) + self.origin))

    def load(self, url):
        self.check(url)
        self.loaded.append(url)
        return super().load(url)

    def get(self, address, params, headers):
        self.check(address)
        return super().get(address, params, headers)

    def post(self, address, message, headers):
        self.check(address)
        return super().post(address, message, headers)


class Recorder(logging.Handler):
    def __init__(self, into):
        super().__init__(logging.WARNING)
        self.into = into

    def emit(self, record):
        self.into.append('%s: %s' % (record.name, record.getMessage()))


def plain(value):
    """zeep's objects as JSON: dicts, lists, ISO dates, decimals as strings, durations as {"$seconds": n}, bytes as {"$bytes": text}, elements as XML text."""
    value = serialize_object(value, dict)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (datetime.date, datetime.time)):  # datetime is a date
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, datetime.timedelta):  # xs:duration, as zeep reads it (isodate)
        return {'$seconds': value.total_seconds()}
    if isinstance(value, bytes):
        return {'$bytes': value.decode('utf-8')}
    if isinstance(value, etree._Element):
        return etree.tostring(value, encoding='unicode')
    return value


def last(history, key):
    """The last envelope `key` ('sent' or 'received') HistoryPlugin kept, as text, or None."""
    entry = history._buffer[-1] if history._buffer else None  # last_sent fails on an empty history
    if entry is None or entry[key] is None:
        return None
    return etree.tostring(entry[key]['envelope'], encoding='unicode')
