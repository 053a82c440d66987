"""Load product prices from a CSV file into the shop's seed data."""
import csv
import sys


def load_prices(path):
    with open(path, newline="") as f:
        return {row["sku"]: int(row["cents"]) for row in csv.DictReader(f)}


if __name__ == "__main__":
    print(load_prices(sys.argv[1]))
