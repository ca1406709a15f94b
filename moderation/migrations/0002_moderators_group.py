from django.db import migrations


def make_group(apps, schema_editor):
    from moderation.permissions import sync_group

    sync_group(apps)


def drop_group(apps, schema_editor):
    from moderation.permissions import GROUP

    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("games", "0011_computer_seat"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(make_group, drop_group)]
