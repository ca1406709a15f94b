from django.db import migrations


def make_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    from moderation.permissions import GROUP, PERMISSIONS

    for app in ("moderation", "games"):  # (permissions are made after migrating, normally)
        config = apps.get_app_config(app)
        config.models_module = True  # (create_permissions skips an app without models)
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.set(
        [
            Permission.objects.get(content_type__app_label=app, codename=codename)
            for app, codename in PERMISSIONS
        ]
    )


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
