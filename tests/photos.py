"""Real photos for the tests, made with Pillow: a phone-like JPEG with GPS, time, device and orientation in its
EXIF, and plain PNG, WebP and HEIC pictures."""

from __future__ import annotations

import io

import pillow_heif
from PIL import ExifTags, Image, ImageDraw

pillow_heif.register_heif_opener()

DEVICE = "DiscardPhone 9 Pro"
LATITUDE = (58.0, 36.0, 12.34)  # Kirov, 58°36′12.34″ N


def picture(width: int = 64, height: int = 48) -> Image.Image:
    """Left half red, right half blue: after a quarter turn the red half is on top."""
    image = Image.new("RGB", (width, height), (220, 20, 20))
    ImageDraw.Draw(image).rectangle([width // 2, 0, width, height], fill=(20, 20, 220))
    return image


def phone_jpeg(orientation: int = 6) -> bytes:
    """As a phone writes it: the sensor's landscape pixels, «rotate 90° clockwise to view», where and when, which
    phone."""
    exif = Image.Exif()
    exif[ExifTags.Base.Make] = "Discard"
    exif[ExifTags.Base.Model] = DEVICE
    exif[ExifTags.Base.DateTime] = "2026:11:18 15:04:05"
    exif[ExifTags.Base.Orientation] = orientation
    exif[ExifTags.Base.GPSInfo] = {
        ExifTags.GPS.GPSLatitudeRef: "N",
        ExifTags.GPS.GPSLatitude: LATITUDE,
        ExifTags.GPS.GPSLongitudeRef: "E",
        ExifTags.GPS.GPSLongitude: (49.0, 40.0, 0.0),
    }
    out = io.BytesIO()
    picture().save(out, format="JPEG", exif=exif, comment=b"taken at the club")
    return out.getvalue()


def encoded(kind: str) -> bytes:
    out = io.BytesIO()
    picture().save(out, format=kind)
    return out.getvalue()


def has_location(data: bytes) -> bool:
    with Image.open(io.BytesIO(data)) as image:
        exif = image.getexif()
        return bool(exif.get_ifd(ExifTags.IFD.GPSInfo)) or DEVICE.encode() in data
